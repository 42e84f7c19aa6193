import Foundation

/// The fastest of `runs` timings: the machine is shared, so the minimum is the least noisy.
func fastest(runs: Int, _ body: () -> Void) -> Double {
    var best = Double.infinity
    for _ in 0..<runs {
        let start = ContinuousClock.now
        body()
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        best = min(best, seconds)
    }
    return best
}

/// Keeps the optimizer from discarding a result.
@inline(never)
func consume<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

func format(_ value: Double, _ digits: Int = 1) -> String {
    String(format: "%.\(digits)f", value)
}

func peakRSSMiB() -> Double? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let kib = line.split(separator: " ").compactMap { Double($0) }.first
        return kib.map { $0 / 1024 }
    }
    return nil
}
