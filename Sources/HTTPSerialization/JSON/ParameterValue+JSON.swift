import Foundation

extension ParameterValue {
    /// Reads a JSON document into a parameter tree, with the package's own reader.
    ///
    /// For code that wants JSON without `Any`: strict RFC 8259 (UTF-8, or UTF-16/32 told by
    /// a byte-order mark or by its zero bytes), exact numbers (``ParameterValue/int(_:)``
    /// when they fit `Int`, ``ParameterValue/decimal(_:)`` for larger integers, otherwise
    /// ``ParameterValue/double(_:)``; `-0` keeps its sign as a double), the last of duplicate
    /// keys wins, and any nesting past `maximumDepth` is a typed error, never a crash.
    ///
    /// ```swift
    /// let value = try ParameterValue(json: Data(#"{"id": 7, "tags": ["a"]}"#.utf8))
    /// // ["id": 7, "tags": ["a"]]
    /// ```
    ///
    /// - Throws: ``JSONReadingError`` naming the fault and its byte offset.
    public init(json data: Data, maximumDepth: Int = ParameterValue.defaultMaximumDepth) throws(JSONReadingError) {
        let tape = try JSONTape.parse(data, maximumDepth: maximumDepth)
        self = tape.withReader { ParameterValue.build(from: $0) }
    }

    /// Builds the tree with a stack of open containers: no recursion at any depth.
    private static func build(from tape: JSONTapeReader) -> ParameterValue {
        struct Frame {
            let isObject: Bool
            var remaining: Int
            var elements: [ParameterValue] = []
            var entries: [String: ParameterValue] = [:]
            var key = ""
        }
        var frames: [Frame] = []
        var entry = 0
        while true {
            if let top = frames.indices.last, frames[top].isObject {
                frames[top].key = tape.string(entry)
                entry += 1
            }
            var value: ParameterValue
            let count = tape.length(entry)
            switch tape.kind(entry) {
            case .object, .array:
                let isObject = tape.kind(entry) == .object
                entry += 1
                if count > 0 {
                    var frame = Frame(isObject: isObject, remaining: count)
                    if isObject { frame.entries.reserveCapacity(count) } else { frame.elements.reserveCapacity(count) }
                    frames.append(frame)
                    continue
                }
                value = isObject ? .dictionary(ParameterDictionary()) : .array(ParameterArray())
            case .string:
                value = .string(tape.string(entry))
                entry += 1
            case .number:
                switch tape.number(entry) {
                case .int(let int): value = .int(int)
                case .uint64(let unsigned): value = .decimal(Decimal(unsigned))
                case .decimal(let decimal): value = .decimal(decimal)
                case .double(let double): value = .double(double)
                }
                entry += 1
            case .true:
                value = .bool(true)
                entry += 1
            case .false:
                value = .bool(false)
                entry += 1
            case .null:
                value = .null
                entry += 1
            }
            // Hand the value to its container; a container that is now full is a value too.
            while let top = frames.indices.last {
                if frames[top].isObject {
                    let key = frames[top].key
                    frames[top].entries[key] = value
                } else {
                    frames[top].elements.append(value)
                }
                frames[top].remaining -= 1
                if frames[top].remaining > 0 { break }
                let done = frames.removeLast()
                value = done.isObject ? .dictionary(ParameterDictionary(done.entries)) : .array(ParameterArray(done.elements))
            }
            if frames.isEmpty { return value }
        }
    }
}

/// The package's own JSON reader, for checks that need no value.
public enum JSONReader {
    /// Checks that `data` is exactly one JSON document, without building any value.
    ///
    /// The same strict RFC 8259 pass every JSON output of the package starts with: useful
    /// to vet a body before storing or forwarding it.
    ///
    /// - Throws: ``JSONReadingError`` naming the fault and its byte offset.
    public static func validate(_ data: Data, maximumDepth: Int = ParameterValue.defaultMaximumDepth) throws(JSONReadingError) {
        _ = try JSONTape.parse(data, maximumDepth: maximumDepth)
    }
}
