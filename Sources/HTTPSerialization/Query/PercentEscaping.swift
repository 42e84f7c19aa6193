/// Percent-escapes a string with AFNetworking's character set.
///
/// Only ALPHA, DIGIT, `-`, `.`, `_`, `~`, `/` and `?` stay literal; every other UTF-8 byte
/// becomes `%XX` in upper-case hex, so `%` is always escaped and never decoded twice. This
/// is RFC 3986's query set less the sub-delimiters, `:`, `@`, `#`, `[` and `]`, which
/// servers may read as structure.
///
/// ```swift
/// percentEscaped(":#[]@!$&'()*+,;=?/")  // "%3A%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D?/"
/// ```
public func percentEscaped(_ string: String) -> String {
    PercentEscaping.escape(string)
}

/// The byte-level engine shared by `percentEscaped(_:)` and the query-string writer.
enum PercentEscaping {
    /// 1 where the byte stays literal.
    static let literal: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256)
        for byte in UInt8(ascii: "A")...UInt8(ascii: "Z") { table[Int(byte)] = 1 }
        for byte in UInt8(ascii: "a")...UInt8(ascii: "z") { table[Int(byte)] = 1 }
        for byte in UInt8(ascii: "0")...UInt8(ascii: "9") { table[Int(byte)] = 1 }
        for byte in "-._~/?".utf8 { table[Int(byte)] = 1 }
        return table
    }()

    static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    static func escape(_ string: String) -> String {
        var string = string
        string.makeContiguousUTF8()
        return string.utf8.withContiguousStorageIfAvailable { source in
            let length = escapedLength(source)
            if length == source.count { return string }
            return String(unsafeUninitializedCapacity: length) { target in
                write(source, to: target.baseAddress!)
            }
        }!
    }

    /// How many bytes `source` takes once escaped.
    @inline(__always)
    static func escapedLength(_ source: UnsafeBufferPointer<UInt8>) -> Int {
        literal.withUnsafeBufferPointer { table in
            var escapes = 0
            for byte in source { escapes &+= Int(table[Int(byte)] ^ 1) }
            return source.count &+ 2 &* escapes
        }
    }

    /// Writes the escaped form of `source` at `target`, which must have room for
    /// `escapedLength(source)` bytes; returns the number of bytes written.
    @inline(__always)
    @discardableResult
    static func write(_ source: UnsafeBufferPointer<UInt8>, to target: UnsafeMutablePointer<UInt8>) -> Int {
        literal.withUnsafeBufferPointer { table in
            hexDigits.withUnsafeBufferPointer { hex in
                var out = 0
                for byte in source {
                    if table[Int(byte)] != 0 {
                        target[out] = byte
                        out &+= 1
                    } else {
                        target[out] = UInt8(ascii: "%")
                        target[out &+ 1] = hex[Int(byte >> 4)]
                        target[out &+ 2] = hex[Int(byte & 0x0F)]
                        out &+= 3
                    }
                }
                return out
            }
        }
    }

    /// Appends the escaped form of `source` to `output`.
    static func append(_ source: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        let length = escapedLength(source)
        if length == source.count {
            output.append(contentsOf: source)
            return
        }
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: length))
        output.withUnsafeMutableBufferPointer { buffer in
            _ = write(source, to: buffer.baseAddress! + start)
        }
    }

    static func append(_ string: String, to output: inout [UInt8]) {
        var string = string
        string.makeContiguousUTF8()
        string.utf8.withContiguousStorageIfAvailable { append($0, to: &output) }
    }
}
