#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes

/// A request as a `curl` command line that sends the same request: Alamofire's
/// `cURLDescription()`, made exact.
///
/// For reproducing a call outside the app, a bug report, or a support ticket. The method,
/// URL, header fields (in order, repeats kept) and body go out as the package's transports
/// send them: curl's own `User-Agent`, `Accept`, `Expect` and `Content-Type` are switched off
/// where the request has none, the URL is not globbed or normalised (a target the transports
/// refuse, such as one with a raw `[`, is refused here with the same error), and a body is either
/// inline text or the exact bytes of a file (a multipart form as encoded, never rebuilt with
/// curl's `-F`). Each argument is quoted for a POSIX shell; a header value holding a control
/// character is written in `$'…'` with three-digit octal escapes of its UTF-8 bytes (bash, zsh,
/// ksh and POSIX.1-2024 shells).
///
/// ```swift
/// let command = try await serialized.curlCommand()
/// print(command)   // curl --globoff --path-as-is --request POST --url 'https://…' -H 'Content-Type: application/json' …
/// ```
///
/// A body of unknown length, which the transports send chunked, is written to the file whole
/// and sent by curl with a `Content-Length`. Writing the file reads the body: a one-shot
/// stream (an `InputStream`, a stream part of a form) is then used up, so make the command
/// from a request whose body can be read again, or send a fresh one after.
public struct CurlCommand: Sendable, Equatable, CustomStringConvertible {
    /// curl's arguments after the program name, one element each, unquoted: for running
    /// curl with `Process` or `posix_spawn`.
    public var arguments: [String]
    /// The file the command reads the body from, already written; nil when the body is
    /// inline or there is none. Remove it when the command is no longer needed.
    public var bodyFile: URL?

    /// The command line, `curl` and every argument quoted for a shell.
    public var description: String {
        (["curl"] + arguments.map(Self.quoted)).joined(separator: " ")
    }

    /// `argument` as one shell word: bare when it holds only characters no shell treats
    /// specially, in single quotes otherwise, and in `$'…'` with escapes when it holds a
    /// control character (which single quotes would print raw to a terminal).
    static func quoted(_ argument: String) -> String {
        // No `=`: zsh expands a word starting with one into a command's path.
        let bare = !argument.isEmpty && argument.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "_@%+:,./-".utf8.contains(byte)
        }
        if bare { return argument }
        guard argument.unicodeScalars.contains(where: Self.needsEscape) else {
            return "'" + argument.replacing("'", with: #"'\''"#) + "'"
        }
        var text = "$'"
        for scalar in argument.unicodeScalars {
            switch scalar {
            case "'", "\\", "\t", "\n", "\r":
                text += octal(scalar.value)
            case _ where needsEscape(scalar):
                // Byte by byte: an octal escape is one byte whatever the shell's locale, so a C1
                // control keeps its UTF-8 form; three digits always, so no digit after it is read in.
                for byte in String(scalar).utf8 { text += octal(UInt32(byte)) }
            default:
                text.unicodeScalars.append(scalar)
            }
        }
        return text + "'"
    }

    /// C0 and C1 controls and DEL, but for tab and line feed: what a terminal acts on rather than shows.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t" && scalar != "\n") || (0x7F...0x9F).contains(scalar.value)
    }

    private static func octal(_ byte: UInt32) -> String {
        let digits = String(byte, radix: 8)
        return "\\" + String(repeating: "0", count: max(0, 3 - digits.count)) + digits
    }
}

extension SerializedRequest {
    /// This request as a `curl` command that sends the same method, URL, header fields and body.
    ///
    /// A body of at most `maximumInlineBodyBytes` bytes of printable UTF-8 text (tabs and line
    /// feeds allowed) goes on the command line; any other body is written to `bodyFile` (a new
    /// file in the temporary directory when nil) and read from there with `--data-binary @`.
    ///
    /// ```swift
    /// let command = try await serialized.curlCommand()
    /// ```
    ///
    /// - Throws: what `HTTPRequest.validateForSending()` throws for a request the transports
    ///   would refuse, ``RequestSerializationError/fileWriteFailed(path:reason:)``, and what
    ///   reading the body throws (a missing file, a short stream).
    public func curlCommand(bodyFile: URL? = nil, maximumInlineBodyBytes: Int = 4096) async throws -> CurlCommand {
        try request.validateForSending()
        var arguments = ["--globoff", "--path-as-is"]
        switch request.method {
        case .get where body.isEmpty:
            break
        case .head where body.isEmpty:
            arguments.append("--head")
        default:
            arguments += ["--request", request.method.rawValue]
        }
        // As the transports send it, byte for byte: the check above refused any target that
        // `URL` would re-encode (a raw `[`, `{` or space), as the transports refuse it.
        arguments += ["--url", RequestTarget(request).urlString]
        // Framing comes from the body, as the transports do it.
        for field in request.headerFields where field.name != .contentLength && field.name != .transferEncoding {
            // `Name:` would remove the field; `Name;` sends it empty.
            arguments += ["-H", field.value.isEmpty ? "\(field.name.rawName);" : "\(field.name.rawName): \(field.value)"]
        }
        // A form's type and boundary, when the request does not state them, as the transports add them.
        var addsFormType = false
        if case .multipart(let form) = body, request.headerFields[.contentType] == nil {
            arguments += ["-H", "Content-Type: \(form.contentType)"]
            addsFormType = true
        }
        // curl's own fields, where the package's transports send none.
        var unset: [HTTPField.Name] = [.userAgent, .accept]
        if !body.isEmpty { unset.append(.expect) }
        if !body.isEmpty, !addsFormType { unset.append(.contentType) }
        for name in unset where request.headerFields[name] == nil {
            arguments += ["-H", "\(name.rawName):"]
        }
        guard !body.isEmpty else { return CurlCommand(arguments: arguments, bodyFile: nil) }
        if let data = body.data, data.count <= maximumInlineBodyBytes, let text = String(validating: data, as: UTF8.self),
           !text.unicodeScalars.contains(where: CurlCommand.needsEscape) {
            // `--data-raw` sends the text as it is, a leading `@` included.
            return CurlCommand(arguments: arguments + ["--data-raw", text], bodyFile: nil)
        }
        let file = bodyFile ?? FileManager.default.temporaryDirectory.appendingPathComponent("curl-body-\(UUID().uuidString)")
        // Readable by its owner alone, as a body may carry credentials; writing keeps the mode.
        if !FileManager.default.fileExists(atPath: file.path) {
            _ = FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        try await body.write(to: file)
        return CurlCommand(arguments: arguments + ["--data-binary", "@" + file.path], bodyFile: file)
    }
}
