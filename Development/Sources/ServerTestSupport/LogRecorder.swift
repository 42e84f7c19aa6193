// What a server wrote to its log during a test, to check that a refusal names its cause there.
public import Logging
import Synchronization

/// Keeps every message logged through its ``logger``, with its level and metadata.
public final class LogRecorder: Sendable {
    private let lines = Mutex<[String]>([])

    public init() {}

    /// A logger at `level` whose messages this recorder keeps.
    public func logger(level: Logger.Level = .debug) -> Logger {
        var logger = Logger(label: "test") { _ in Handler(recorder: self) }
        logger.logLevel = level
        return logger
    }

    /// Every line so far, as `level: message metadata`.
    public var logged: [String] { lines.withLock { $0 } }

    /// Whether a line holds every one of `fragments`.
    public func contains(_ fragments: String...) -> Bool {
        logged.contains { line in fragments.allSatisfy(line.contains) }
    }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { _, new in new }
            let text = all.isEmpty ? "" : " " + all.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
            recorder.lines.withLock { $0.append("\(event.level): \(event.message)\(text)") }
        }
    }
}
