import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HTTPSerialization

/// One HTTPie-style request item from the command line, with any file it names already read.
enum RequestItem: Equatable {
    /// `Header:value`
    case header(name: String, value: String)
    /// `Header:`: the header is not sent at all, even a default one.
    case removeHeader(name: String)
    /// `Header;`: the header is sent with an empty value.
    case emptyHeader(name: String)
    /// `name==value`, or `name==@file`: appended to the URL query.
    case query(name: String, value: String)
    /// `name=value`, or `name=@file`: a string field.
    case data(name: String, value: String)
    /// `name:=json`, or `name:=@file`: a raw JSON value, kept with the text it came from.
    case json(name: String, value: ParameterValue, text: String)
    /// `field@path[;type=mime]`: a file to upload as a multipart part.
    case file(name: String, path: String, mimeType: String?)
    /// `@path[;type=mime]`: the file is the whole request body.
    case bodyFile(path: String, mimeType: String?)

    /// Whether the item puts data in the body, which makes POST the default method.
    var isData: Bool {
        switch self {
        case .data, .json, .file, .bodyFile: return true
        case .header, .removeHeader, .emptyHeader, .query: return false
        }
    }
}

/// A usage error: a malformed item or option, reported with exit status 2 as HTTPie does.
struct RequestItemError: Error, CustomStringConvertible {
    var description: String
}

enum RequestItems {
    /// HTTPie's separators; at the same position the longest wins, so `:=@` beats `:=` and `:`.
    private static let separators = [":=@", "==@", "=@", ":=", "==", "=", "@", ":", ";"]
    /// Characters a backslash makes literal. `[` and `]` keep their backslash in names, where
    /// the nested-name parser reads it.
    private static let escapable: Set<Character> = [":", "=", "@", ";", "\\"]

    /// Parses one item, reading the file of `=@`, `:=@` and `==@` items.
    static func parse(_ text: String, files: FileReading = .disk) throws -> RequestItem {
        let characters = Array(text)
        var name = ""
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "\\", index + 1 < characters.count {
                let next = characters[index + 1]
                if escapable.contains(next) {
                    name.append(next)
                } else {
                    name.append(character)
                    name.append(next)
                }
                index += 2
                continue
            }
            if let separator = separators.first(where: { characters[index...].starts(with: Array($0)) }) {
                let value = unescapeValue(characters[(index + separator.count)...])
                return try item(name: name, separator: separator, value: value, original: text, files: files)
            }
            name.append(character)
            index += 1
        }
        throw RequestItemError(description: "\"\(text)\" is not a request item (name=value, name:=json, name==query, Header:value, Header:, Header;, field@file, name=@file or name:=@file)")
    }

    private static func unescapeValue(_ characters: ArraySlice<Character>) -> String {
        var value = ""
        var index = characters.startIndex
        while index < characters.endIndex {
            let character = characters[index]
            if character == "\\", index + 1 < characters.endIndex, escapable.contains(characters[index + 1]) {
                value.append(characters[index + 1])
                index += 2
            } else {
                value.append(character)
                index += 1
            }
        }
        return value
    }

    private static func item(name: String, separator: String, value: String, original: String, files: FileReading) throws -> RequestItem {
        if name.isEmpty && separator != "@" {
            throw RequestItemError(description: "\"\(original)\" has no name before \"\(separator)\"")
        }
        switch separator {
        case ":":
            try checkHeaderName(name)
            // Only `Name:` with nothing after it removes; spaces around a value are dropped.
            guard !value.isEmpty else { return .removeHeader(name: name) }
            return .header(name: name, value: value.trimmingCharacters(in: CharacterSet(charactersIn: " \t")))
        case ";":
            try checkHeaderName(name)
            guard value.isEmpty else {
                throw RequestItemError(description: "\"\(original)\": a header with an empty value is written Header; with nothing after the semicolon")
            }
            return .emptyHeader(name: name)
        case "==":
            return .query(name: name, value: value)
        case "==@":
            return .query(name: name, value: try files.text(value, item: original))
        case "=":
            return .data(name: name, value: value)
        case "=@":
            return .data(name: name, value: try files.text(value, item: original))
        case ":=":
            return .json(name: name, value: try json(value, source: value), text: value)
        case ":=@":
            let text = try files.text(value, item: original)
            return .json(name: name, value: try json(text, source: value), text: text)
        default:
            var path = value
            var mimeType: String?
            if let typeRange = value.range(of: ";type=") {
                path = String(value[..<typeRange.lowerBound])
                mimeType = String(value[typeRange.upperBound...])
            }
            guard !path.isEmpty else { throw RequestItemError(description: "\"\(original)\" names no file after @") }
            return name.isEmpty ? .bodyFile(path: path, mimeType: mimeType) : .file(name: name, path: path, mimeType: mimeType)
        }
    }

    private static func checkHeaderName(_ name: String) throws {
        guard HTTPHeaderFields.isToken(name) else { throw RequestItemError(description: "\"\(name)\" is not a valid header name") }
    }

    private static func json(_ text: String, source: String) throws -> ParameterValue {
        do {
            return try ParameterValue(json: Data(text.utf8))
        } catch {
            throw RequestItemError(description: "\(source) is not valid JSON: \(error)")
        }
    }
}

/// How items read the files they name; tests substitute their own.
struct FileReading: Sendable {
    var read: @Sendable (String) throws -> Data

    static let disk = FileReading { path in try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// The file's contents as UTF-8 text, or a usage error that names the item.
    func text(_ path: String, item: String) throws -> String {
        let data: Data
        do {
            data = try read(path)
        } catch {
            throw RequestItemError(description: "\"\(item)\": \(path) cannot be read (\(Self.reason(error)))")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw RequestItemError(description: "\"\(item)\": \(path) is not UTF-8 text")
        }
        return text
    }

    static func reason(_ error: any Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let underlying, underlying.domain == NSPOSIXErrorDomain, let code = POSIXErrorCode(rawValue: Int32(underlying.code)) {
            return String(cString: strerror(code.rawValue))
        }
        return error.localizedDescription
    }
}
