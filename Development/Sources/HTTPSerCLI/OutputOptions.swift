import ArgumentParser

/// Which parts of the exchange are printed, HTTPie's `--print` letters: `H` request
/// headers, `B` request body, `h` response headers, `b` response body.
struct PrintSelection: Equatable {
    var requestHead = false
    var requestBody = false
    var responseHead = false
    var responseBody = false

    static let none = PrintSelection()

    init(requestHead: Bool = false, requestBody: Bool = false, responseHead: Bool = false, responseBody: Bool = false) {
        self.requestHead = requestHead
        self.requestBody = requestBody
        self.responseHead = responseHead
        self.responseBody = responseBody
    }

    init(letters: String) throws {
        for letter in letters {
            switch letter {
            case "H": requestHead = true
            case "B": requestBody = true
            case "h": responseHead = true
            case "b": responseBody = true
            case "m": continue  // HTTPie's metadata: accepted, nothing to print here
            default: throw RequestItemError(description: "--print takes letters from HBhb, not \"\(letter)\"")
            }
        }
    }

    /// HTTPie's choice: `--print` when given; `-v` is everything; `-h` and `-b` pick the
    /// response's parts; `--offline` shows the request; otherwise headers and body on a
    /// terminal, only the body when output goes to a pipe or file.
    static func resolve(
        print: String?, verbose: Bool, headers: Bool, body: Bool, quiet: Bool, offline: Bool, outputIsTerminal: Bool
    ) throws -> PrintSelection {
        if let print { return try PrintSelection(letters: print) }
        if quiet { return .none }
        if verbose { return PrintSelection(requestHead: true, requestBody: true, responseHead: true, responseBody: true) }
        if headers || body { return PrintSelection(responseHead: headers, responseBody: body) }
        if offline { return PrintSelection(requestHead: true, requestBody: true) }
        return PrintSelection(responseHead: outputIsTerminal, responseBody: true)
    }
}

/// `--pretty`: colours, formatting, both or neither. Both on a terminal by default, neither
/// when output goes to a pipe or file, so piped bytes are the bytes received.
enum Pretty: String, ExpressibleByArgument, CaseIterable {
    case all, colors, format, none

    var colors: Bool { self == .all || self == .colors }
    var formats: Bool { self == .all || self == .format }

    static func resolve(_ given: Pretty?, outputIsTerminal: Bool) -> Pretty {
        given ?? (outputIsTerminal ? .all : .none)
    }
}
