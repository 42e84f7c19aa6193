import AsyncHTTPClient
import Foundation
import HTTPSerialization
import HTTPSerializationAsyncHTTPClient
import HTTPTypes
import NIOCore
import NIOHTTP1

/// Where printed output goes: standard output, or the file `--output` names.
struct OutputSink {
    /// A terminal gets colours, formatting and notices by default; a file never does.
    let isTerminal: Bool
    private let file: FileHandle?
    private let console: Console

    init(path: String?, console: Console) throws {
        self.console = console
        guard let path else {
            (file, isTerminal) = (nil, console.outputIsTerminal)
            return
        }
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw RuntimeFailure("--output: \(path) cannot be created")
        }
        (file, isTerminal) = (handle, false)
    }

    func write(_ data: Data) throws {
        if let file { try file.write(contentsOf: data) } else { console.out(data) }
    }
}

/// Prints heads and bodies of the request and the response as `--print` and `--pretty` ask.
struct MessagePrinter {
    /// Bodies up to this size are formatted whole; a larger one is written as it arrives.
    static let formatLimit = 16 << 20

    let sink: OutputSink
    let pretty: Pretty
    /// `--stream`: every body chunk is written as it arrives, never gathered to be formatted.
    var streams = false

    func printRequest(_ wire: WireRequest, head: Bool, body: Bool) async throws {
        if head { try sink.write(Data((pretty.colors ? Highlighter.head(wire.head) : wire.head).utf8)) }
        if body { try await printBody(contentType: wire.contentType) { consume in try await wire.chunks(consume) } }
    }

    /// The response's head; for a terminal, with the server's control characters made visible.
    static func responseHead(_ response: HTTPClientResponse, colored: Bool, terminal: Bool) -> Data {
        var text = "\(response.version) \(response.status.code) \(response.status.reasonPhrase)\r\n"
        for header in response.headers { text += "\(header.name): \(header.value)\r\n" }
        text += "\r\n"
        if terminal { text = TerminalText.sanitized(text) }
        return Data((colored ? Highlighter.head(text) : text).utf8)
    }

    func printResponseHead(_ response: HTTPClientResponse) throws {
        try sink.write(Self.responseHead(response, colored: pretty.colors, terminal: sink.isTerminal))
    }

    func printResponseBody(_ hop: Exchange.Hop, timeout: TimeAmount?, collected: Data?) async throws {
        let contentType = hop.response.headers.first(name: "content-type")
        if let collected {
            try await printBody(contentType: contentType) { consume in try await consume(collected) }
            return
        }
        try await printBody(contentType: contentType) { consume in
            try await hop.readBody(timeout: timeout) { buffer in try await consume(Data(buffer.readableBytesView)) }
        }
    }

    /// `--events`: the body read as server-sent events, each printed as one JSON object a line
    /// the moment it is dispatched.
    func printEvents(_ hop: Exchange.Hop, timeout: TimeAmount?) async throws {
        let chunks = hop.response.body.map(\.readableBytesView)
        let method = HTTPRequest.Method(hop.request.httpMethod ?? "GET")
        do {
            for try await event in ServerSentEventsResponseSerializer().values(for: HTTPResponse(hop.response), body: chunks, requestMethod: method) {
                try sink.write(Data((EventLine.json(event) + "\n").utf8))
            }
        } catch {
            throw TransportError(asyncHTTPClientError: error, url: hop.request.url?.absoluteString ?? "", timeout: timeout ?? .seconds(10)) ?? error
        }
    }

    /// Raw bytes go straight through; bodies to format or show on a terminal are gathered up
    /// to ``formatLimit`` first. On a terminal, binary data is replaced by HTTPie's notice.
    private func printBody(contentType: String?, _ produce: ((Data) async throws -> Void) async throws -> Void) async throws {
        var streaming = streams || !sink.isTerminal && !pretty.formats && !pretty.colors
        var buffer = Data()
        var suppressed = false
        var last: UInt8?
        try await produce { chunk in
            guard !suppressed, !chunk.isEmpty else { return }
            if streaming {
                if sink.isTerminal && BodyDisplay.isBinary(chunk) {
                    try sink.write(Data(BodyDisplay.binaryNotice.utf8))
                    suppressed = true
                    return
                }
                try sink.write(sink.isTerminal && pretty != .none ? TerminalText.sanitized(chunk) : chunk)
                last = chunk.last
                return
            }
            buffer.append(chunk)
            if buffer.count > Self.formatLimit {
                streaming = true
                if sink.isTerminal && BodyDisplay.isBinary(buffer) {
                    try sink.write(Data(BodyDisplay.binaryNotice.utf8))
                    suppressed = true
                } else {
                    try sink.write(sink.isTerminal && pretty != .none ? TerminalText.sanitized(buffer) : buffer)
                    last = buffer.last
                }
                buffer = Data()
            }
        }
        if !streaming {
            try sink.write(BodyDisplay.render(buffer, contentType: contentType, pretty: pretty, terminal: sink.isTerminal))
        } else if sink.isTerminal, !suppressed, let last, last != UInt8(ascii: "\n") {
            try sink.write(Data("\n".utf8))
        }
    }
}
