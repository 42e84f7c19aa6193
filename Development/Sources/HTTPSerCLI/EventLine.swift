import HTTPSerialization

/// The line `--events` prints for an event: `{"event":…,"data":…,"id":…,"retry":…}` in that
/// order, fields the event did not set left out, so `jq` reads one object a line.
enum EventLine {
    static func json(_ event: ServerSentEvent) -> String {
        var fields: [String] = []
        if let name = event.event { fields.append(#""event":"# + quoted(name)) }
        fields.append(#""data":"# + quoted(event.data))
        if let id = event.id { fields.append(#""id":"# + quoted(id)) }
        if let retry = event.retry { fields.append(#""retry":\#(retry)"#) }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// A JSON string: quotes, backslashes and control characters escaped, the rest as UTF-8.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{00}"..."\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}":
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
