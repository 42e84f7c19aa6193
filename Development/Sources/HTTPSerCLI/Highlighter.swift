/// ANSI colours for `--pretty=all|colors`: the message heads and JSON bodies.
enum Highlighter {
    private static let reset = "\u{1B}[0m"
    private static let blue = "\u{1B}[34m", cyan = "\u{1B}[36m", green = "\u{1B}[32m", yellow = "\u{1B}[33m"
    private static let red = "\u{1B}[31m", magenta = "\u{1B}[35m", bold = "\u{1B}[1m"

    /// A head, request or response, its lines ending in CRLF: the first line by part, field
    /// names in cyan.
    static func head(_ text: String) -> String {
        // "\r\n" is one Character, so the lines are split on it, not on "\n".
        var lines = text.components(separatedBy: "\r\n")
        guard let first = lines.first else { return text }
        let parts = first.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        if first.hasPrefix("HTTP/"), parts.count >= 2 {
            let color = statusColor(parts[1])
            lines[0] = blue + parts[0] + reset + " " + color + bold + parts[1] + reset
                + (parts.count > 2 ? " " + color + parts[2] + reset : "")
        } else if parts.count == 3 {
            lines[0] = green + bold + parts[0] + reset + " " + cyan + parts[1] + reset + " " + blue + parts[2] + reset
        }
        for index in lines.indices.dropFirst() {
            guard let colon = lines[index].firstIndex(of: ":") else { continue }
            lines[index] = cyan + lines[index][..<colon] + reset + lines[index][colon...]
        }
        return lines.joined(separator: "\r\n")
    }

    private static func statusColor(_ code: String) -> String {
        switch code.first {
        case "2": return green
        case "3": return yellow
        default: return red
        }
    }

    /// Formatted or raw JSON with keys, strings, numbers and literals coloured; bytes that
    /// are not JSON pass through unchanged.
    static func json(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        func append(_ color: String, _ range: Range<Int>) {
            out.append(contentsOf: color.unicodeScalars)
            out.append(contentsOf: scalars[range])
            out.append(contentsOf: reset.unicodeScalars)
        }
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "\"":
                var end = index + 1
                while end < scalars.count, scalars[end] != "\"" { end += scalars[end] == "\\" ? 2 : 1 }
                end = min(end + 1, scalars.count)
                var next = end
                while next < scalars.count, scalars[next] == " " || scalars[next] == "\n" || scalars[next] == "\t" { next += 1 }
                append(next < scalars.count && scalars[next] == ":" ? blue : yellow, index..<end)
                index = end
            case "-", "0"..."9":
                var end = index + 1
                while end < scalars.count, "0123456789.eE+-".unicodeScalars.contains(scalars[end]) { end += 1 }
                append(cyan, index..<end)
                index = end
            case "t", "f", "n":
                var end = index
                while end < scalars.count, ("a"..."z").contains(scalars[end]) { end += 1 }
                append(magenta, index..<end)
                index = end
            default:
                out.append(scalar)
                index += 1
            }
        }
        return String(out)
    }
}
