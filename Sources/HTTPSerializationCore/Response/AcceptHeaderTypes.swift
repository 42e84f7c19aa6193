import HTTPTypes

extension ResponseContext {
    /// The media ranges the request's `Accept` field lists with a weight above zero, lower-cased
    /// and without parameters; nil (any type) when there is no request, no `Accept`, or a `*/*`.
    ///
    /// A range sent with `q=0` is left out: the client said it does not want it. A `*/*`
    /// accepts every type, even one listed with `q=0` beside it.
    package var acceptedMediaRanges: Set<String>? {
        guard let accept = request?.headerFields[.accept] else { return nil }
        var ranges: Set<String> = []
        var listsAny = false
        for element in accept.split(separator: ",") {
            let parameters = element.split(separator: ";")
            guard let range = parameters.first?.trimmed.lowercased(), !range.isEmpty else { continue }
            let refused = parameters.dropFirst().contains { parameter in
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2, pair[0].trimmed.lowercased() == "q" else { return false }
                return Double(pair[1].trimmed).map { $0 <= 0 } ?? false
            }
            guard !refused else { continue }
            if range == "*/*" { listsAny = true }
            ranges.insert(range)
        }
        if listsAny || (ranges.isEmpty && accept.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "," })) { return nil }
        return ranges
    }
}

extension Substring {
    /// Without the spaces and tabs HTTP allows around list elements and parameters.
    fileprivate var trimmed: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else { return "" }
        return self[start...end]
    }
}
