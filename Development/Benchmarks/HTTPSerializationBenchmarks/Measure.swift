import Foundation

/// The fastest of `runs` timings of each body, the bodies alternating round by round.
///
/// The machine is a shared VM whose speed drifts by 2-3x: alternating puts every compared
/// body under the same drift, and the minimum is the least disturbed run of each.
func fastest(runs: Int, _ bodies: [() -> Void]) -> [Double] {
    var best = [Double](repeating: .infinity, count: bodies.count)
    for _ in 0..<runs {
        for (index, body) in bodies.enumerated() {
            let start = ContinuousClock.now
            body()
            let elapsed = ContinuousClock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            best[index] = min(best[index], seconds)
        }
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

/// A memory figure of this process from /proc/self/status (`VmRSS`, `VmHWM`), in MiB.
func processStatusMiB(_ field: String) -> Double? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
        return line.split(separator: " ").compactMap { Double($0) }.first.map { $0 / 1024 }
    }
    return nil
}

/// Named frames for `--profile` runs that interleave a peer with us, so a profile splits the
/// samples by side (each side's free included) by looking for these in the stack.
enum ProfileSides {
    @inline(never) static func peer(_ body: () -> Void) { body() }
    @inline(never) static func ours(_ body: () -> Void) { body() }
}
