#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore

extension JSONStreamWriter where Value: Encodable & SendableMetatype {
    /// A writer of `Encodable` models, each encoded by the package's encoder.
    ///
    /// ```swift
    /// let body = JSONStreamWriter<LogEntry>(format: .lines).chunks(for: entries)
    /// ```
    ///
    /// - Parameters:
    ///   - format: how values are separated.
    ///   - encoder: the encoder's strategies apply; its output is always compact
    ///     (`.prettyPrinted` is ignored), so each value stays on one line.
    public init(format: Format = .lines, encoder: JSONBodyEncoder = JSONBodyEncoder()) {
        var encoder = encoder
        encoder.outputFormatting.remove(.prettyPrinted)
        self.init(format: format) { [encoder] in try encoder.encode($0, appendingTo: &$1) }
    }
}
