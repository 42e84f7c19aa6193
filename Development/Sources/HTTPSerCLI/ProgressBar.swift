import Foundation
import HTTPSerialization

/// An upload or download progress bar on standard error: redrawn in place on a terminal, a
/// single summary line otherwise.
///
/// `@unchecked Sendable`: updates come from transport threads; state is guarded by `lock`.
final class ProgressBar: @unchecked Sendable {
    private let label: String
    private let console: Console
    private let lock = NSLock()
    private let start = Date()
    private var lastDraw = Date.distantPast
    private var latest = TransferProgress(completed: 0, total: nil)

    init(label: String, console: Console) {
        self.label = label
        self.console = console
    }

    func update(_ progress: TransferProgress) {
        lock.lock()
        latest = progress
        let now = Date()
        let due = now.timeIntervalSince(lastDraw) >= 0.1 || progress.completed == progress.total
        if due { lastDraw = now }
        lock.unlock()
        if due && console.errorIsTerminal { console.error("\r" + line(progress, elapsed: now.timeIntervalSince(start)) + "\u{1B}[K") }
    }

    /// The final line: completes the bar on a terminal, or prints the one summary otherwise.
    func finish() {
        lock.lock()
        let progress = latest
        lock.unlock()
        guard progress.completed > 0 else { return }
        let text = line(progress, elapsed: Date().timeIntervalSince(start))
        console.error(console.errorIsTerminal ? "\r" + text + "\u{1B}[K\n" : text + "\n")
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
