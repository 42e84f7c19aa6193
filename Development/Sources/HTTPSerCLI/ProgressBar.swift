import Foundation
import HTTPSerialization

/// An upload or download progress bar on standard error, redrawn in place. It is drawn only
/// on a terminal, and only for transfers large enough to take a noticeable time.
///
/// `@unchecked Sendable`: updates come from transport threads; state is guarded by `lock`.
final class ProgressBar: @unchecked Sendable {
    /// Smaller transfers finish before a bar would tell anyone anything.
    static let defaultMinimum: Int64 = 1 << 20

    private let label: String
    private let console: Console
    private let minimum: Int64
    private let lock = NSLock()
    private let start = Date()
    private var lastDraw = Date.distantPast
    private var drawn = false
    private var latest = TransferProgress(completed: 0, total: nil)

    init(label: String, console: Console, minimum: Int64 = ProgressBar.defaultMinimum) {
        self.label = label
        self.console = console
        self.minimum = minimum
    }

    func update(_ progress: TransferProgress) {
        guard console.errorIsTerminal, max(progress.total ?? 0, progress.completed) >= minimum else { return }
        lock.lock()
        latest = progress
        let now = Date()
        let due = now.timeIntervalSince(lastDraw) >= 0.1 || progress.completed == progress.total
        if due {
            lastDraw = now
            drawn = true
        }
        lock.unlock()
        if due { console.error("\r" + line(progress, elapsed: now.timeIntervalSince(start)) + "\u{1B}[K") }
    }

    /// Completes a bar that was drawn.
    func finish() {
        lock.lock()
        let (progress, wasDrawn) = (latest, drawn)
        lock.unlock()
        guard wasDrawn else { return }
        console.error("\r" + line(progress, elapsed: Date().timeIntervalSince(start)) + "\u{1B}[K\n")
    }

    private func line(_ progress: TransferProgress, elapsed: TimeInterval) -> String {
        let done = Self.size(progress.completed)
        let rate = elapsed > 0 ? Self.size(Int64(Double(progress.completed) / elapsed)) + "/s" : ""
        guard let fraction = progress.fraction, let total = progress.total else {
            return "\(label) \(done) \(rate)"
        }
        let width = 30
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
        return "\(label) [\(bar)] \(String(format: "%3d", Int(fraction * 100)))% \(done) of \(Self.size(total)) \(rate)"
    }

    static func size(_ bytes: Int64) -> String {
        let value = Double(bytes)
        if value >= 1_048_576 { return String(format: "%.1f MiB", value / 1_048_576) }
        if value >= 1024 { return String(format: "%.1f KiB", value / 1024) }
        return "\(bytes) B"
    }
}
