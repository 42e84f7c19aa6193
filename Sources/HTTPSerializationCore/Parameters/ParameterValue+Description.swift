#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ParameterValue: CustomStringConvertible {
    /// The value written as a Swift literal, dictionary keys sorted: `["a": [1, "x"], "b": nil]`.
    ///
    /// Built with a stack on the heap, so printing a tree of any depth is safe; sets read
    /// `.set([…])` in their own order, as Swift prints a `Set`; data reads `<3 bytes>`.
    public var description: String {
        enum Piece {
            case value(ParameterValue)
            case text(String)
        }
        var output = ""
        var pieces: [Piece] = [.value(self)]
        // Pushes `items` to print in order between `open` and `close`, separated by ", ".
        func enclose(_ open: String, _ items: [[Piece]], _ close: String) {
            pieces.append(.text(close))
            for (index, item) in items.enumerated().reversed() {
                pieces.append(contentsOf: item.reversed())
                if index > 0 { pieces.append(.text(", ")) }
            }
            pieces.append(.text(open))
        }
        while let piece = pieces.popLast() {
            switch piece {
            case .text(let text): output += text
            case .value(let value):
                switch value {
                case .string(let string): output += string.debugDescription
                case .int(let int): output += String(int)
                case .double(let double): output += String(double)
                case .decimal(let decimal): output += "\(decimal)"
                case .bool(let bool): output += bool ? "true" : "false"
                case .null: output += "nil"
                case .data(let data): output += "<\(data.count) bytes>"
                case .date(let date): output += "\(date)"
                case .array(let elements):
                    enclose("[", elements.map { [.value($0)] }, "]")
                case .set(let elements):
                    enclose(".set([", elements.map { [.value($0)] }, "])")
                case .dictionary(let entries):
                    if entries.isEmpty { output += "[:]"; continue }
                    let sorted = entries.sorted { $0.key.unicodeScalars.lexicographicallyPrecedes($1.key.unicodeScalars) }
                    enclose("[", sorted.map { [.text($0.key.debugDescription + ": "), .value($0.value)] }, "]")
                }
            }
        }
        return output
    }
}
