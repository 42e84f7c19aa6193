import Foundation
import HTTPSerializationCore

extension JSONStreamWriter where Value == Any {
    /// A writer of Foundation graphs (`[String: Any]`, `[Any]`, `NSNumber`, `NSNull`, strings),
    /// each bridged as `ParameterValue(any:)` bridges it and
    /// written by the package's writer, for code that holds `JSONSerialization`'s values.
    ///
    /// - Parameters:
    ///   - format: how values are separated.
    ///   - options: `.sortedKeys` and `.withoutEscapingSlashes` apply; output is always compact.
    public init(format: Format = .lines, options: JSONSerialization.WritingOptions = []) {
        let options = JSONWritingOptions(rawValue: options.rawValue).subtracting(.prettyPrinted).union(.fragmentsAllowed)
        self.init(format: format) { try ParameterValue(any: $0).appendJSON(to: &$1, options: options, maximumDepth: ParameterValue.defaultMaximumDepth) }
    }
}
