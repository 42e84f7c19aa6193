import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPSerialization
import HTTPSerializationAsyncHTTPClient
import NIOCore
import NIOHTTP1

/// Runs `send` against a console, returning the exit code: 0, 1 for an error, 2 for a usage
/// error or a timeout, 3/4/5 with `--check-status`, 6 for too many redirects (HTTPie's codes).
public struct SendRunner {
    let options: Send
    let console: Console

    public init(options: Send, console: Console) {
        self.options = options
        self.console = console
    }

    public func run() async -> Int32 {
        do {
            return try await execute()
        } catch let error as RequestItemError {
            console.error("httpser: error: \(error.description)\n")
            return 2
        } catch let error as TransportError {
            console.error("httpser: error: \(error.description)\n")
            if case .timedOut = error { return 2 }
            return 1
        } catch let error as Exchange.TooManyRedirects {
            console.error("httpser: error: \(error.description)\n")
            return 6
        } catch let error as any HTTPSerializationError {
            console.error("httpser: error: \(error.localizedDescription)\n")
            return 1
        } catch {
            console.error("httpser: error: \(error)\n")
            return 1
        }
    }

    private func execute() async throws -> Int32 {
        let (plannedRequest, form) = try plan().build()
        var request = plannedRequest
        let timeout = try timeout()
        let tls = try TLSOptions(verify: options.verify, certificate: options.cert, certificateKey: options.certKey).configuration()
        // A download keeps the bytes as sent, asked for unencoded (as HTTPie does), so a later
        // --continue's range counts the same bytes as the file.
        if options.download, request.value(forHTTPHeaderField: "Accept-Encoding") == nil {
            request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        }
        let resumed = try resumeAttempt(&request)
        let outputPath = options.download ? nil : options.output
        let toTerminal = outputPath == nil && console.outputIsTerminal
        let selection = try PrintSelection.resolve(
            print: options.print, verbose: options.verbose, headers: options.headers, body: options.body, quiet: options.quiet,
            offline: options.offline, outputIsTerminal: toTerminal)
        let pretty = Pretty.resolve(options.pretty, outputIsTerminal: toTerminal)
        // The output file is created (or emptied) only once every option has been checked.
        let sink = try OutputSink(path: outputPath, console: console)
        if options.curl {
            try sink.write(Data((try await curlCommand(request, form: form).description + "\n").utf8))
            return 0
        }
        if let path = options.writeBody {
            try await writeBody(request, form: form, to: URL(fileURLWithPath: path))
        }

        if options.events && options.download {
            throw RequestItemError(description: "--events prints the events; it cannot be combined with --download")
        }
        let printer = MessagePrinter(sink: sink, pretty: pretty, streams: options.stream)
        if selection.requestHead || selection.requestBody {
            try await printer.printRequest(try WireRequest(request, form: form), head: selection.requestHead, body: selection.requestBody)
            if !options.offline && (selection.responseHead || selection.responseBody) { try sink.write(Data("\n\n".utf8)) }
        }
        if options.offline { return 0 }

        let client = Exchange.makeClient(timeout: timeout, tls: tls)
        do {
            let code = try await exchange(
                request, form: form, client: client, timeout: timeout, printer: printer, selection: selection, resumed: resumed)
            try await client.shutdown()
            return code
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    private func exchange(
        _ request: URLRequest, form: MultipartFormData?, client: HTTPClient, timeout: TimeAmount?, printer: MessagePrinter,
        selection: PrintSelection, resumed: FileDownload.Attempt?
    ) async throws -> Int32 {
        let upload = ProgressBar(label: "upload  ", console: console)
        var exchange = Exchange(client: client, timeout: timeout)
        exchange.follow = options.follow
        exchange.maximumRedirects = options.maxRedirects
        let hop = try await exchange.send(request, form: form, uploadProgress: { upload.update($0) }, onHop: { hop in
            guard options.all, selection.responseHead else { return }
            try printer.printResponseHead(hop.response)
            try printer.sink.write(Data("\n".utf8))
        })
        upload.finish()
        let response = hop.response
        let status = Int(response.status.code)
        let url = hop.request.url ?? URL(fileURLWithPath: "/")

        if options.download, (200..<300).contains(status) || (status == 416 && resumed?.resumingAt != nil) {
            if !options.quiet {
                let head = MessagePrinter.responseHead(response, colored: false, terminal: console.errorIsTerminal)
                console.error(String(decoding: head, as: UTF8.self))
            }
            try await DownloadRunner(console: console, quiet: options.quiet)
                .save(hop, timeout: timeout, output: options.output, resumed: resumed)
        } else {
            var collected: Data?
            if let accept = options.accept {
                let data = try await Self.collect(hop, timeout: timeout, limit: 256 << 20)
                try validate(response, url: url, data: data, acceptable: accept)
                collected = data
            }
            if selection.responseHead {
                try printer.printResponseHead(response)
            }
            // A body not asked for is left unread: the connection closes instead of waiting
            // for a body that may never end.
            if selection.responseBody && options.events {
                try await printer.printEvents(hop, timeout: timeout)
            } else if selection.responseBody {
                try await printer.printResponseBody(hop, timeout: timeout, collected: collected)
            }
        }
        if options.checkStatus, (300..<600).contains(status) {
            if !options.quiet && !printer.sink.isTerminal {
                let reason = console.errorIsTerminal ? TerminalText.sanitized(response.status.reasonPhrase) : response.status.reasonPhrase
                console.error("httpser: warning: HTTP \(status) \(reason)\n")
            }
            return Int32(status / 100)
        }
        return 0
    }

    func plan() throws -> RequestPlan {
        let target = try CommandLineTarget(arguments: options.arguments, defaultScheme: options.defaultScheme)
        let modes = [(options.form, BodyMode.form), (options.json, .json), (options.multipart, .multipart), (options.plist, .plist)]
            .filter(\.0).map(\.1)
        guard modes.count <= 1 else { throw RequestItemError(description: "choose one of --form, --json, --multipart and --plist") }
        var plan = RequestPlan(method: target.method, url: target.url, items: try target.items.map { try RequestItems.parse($0) },
                               mode: modes.first, boundary: options.boundary)
        plan.rawBody = try rawBody()
        if let throttle = options.throttle {
            let parts = throttle.split(separator: ":")
            guard parts.count == 2, let bytes = Int(parts[0]), bytes > 0, let seconds = Double(parts[1]), seconds >= 0, seconds.isFinite else {
                throw RequestItemError(description: "--throttle takes BYTES:SECONDS, such as 16384:0.2")
            }
            plan.throttle = (bytes, seconds)
        }
        switch (options.authType.lowercased(), options.auth) {
        case ("bearer", let token?):
            plan.credentials = .bearer(token)
        case ("bearer", nil):
            throw RequestItemError(description: "--auth-type bearer takes the token as --auth TOKEN")
        case ("basic", let auth?):
            guard let colon = auth.firstIndex(of: ":") else {
                throw RequestItemError(description: "--auth takes USER:PASS (httpser does not prompt for a password)")
            }
            plan.credentials = .basic(user: String(auth[..<colon]), password: String(auth[auth.index(after: colon)...]))
        case ("basic", nil):
            plan.credentials = target.credentials.map { .basic(user: $0.user, password: $0.password) }
        default:
            throw RequestItemError(description: "--auth-type takes basic or bearer (digest is not supported)")
        }
        return plan
    }

    /// `--raw`, else standard input when it is not a terminal and holds something.
    private func rawBody() throws -> Data? {
        if let raw = options.raw { return Data(raw.utf8) }
        guard !options.ignoreStdin, let input = console.input(), !input.isEmpty else { return nil }
        return input
    }

    private func timeout() throws -> TimeAmount? {
        guard let seconds = options.timeout else { return nil }
        guard seconds.isFinite, seconds > 0 else { throw RequestItemError(description: "--timeout takes a positive number of seconds") }
        return .nanoseconds(Int64(min(seconds, 1e9) * 1e9))
    }

    /// What `--continue` resumes: the partial file at `--output`, whose `Range` goes into
    /// `request`; nil without `--continue`.
    private func resumeAttempt(_ request: inout URLRequest) throws -> FileDownload.Attempt? {
        guard options.resume else { return nil }
        guard options.download, let output = options.output else {
            throw RequestItemError(description: "--continue resumes a --download into the file given by --output")
        }
        return try DownloadRunner.resuming(output, request: &request)
    }

    private func validate(_ response: HTTPClientResponse, url: URL, data: Data, acceptable: String) throws {
        var serializer = HTTPResponseSerializer(acceptableStatusCodes: nil, acceptableContentTypes: nil)
        serializer.acceptableContentTypes = Set(acceptable.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        _ = try serializer.responseObject(for: ResponseContext(response: HTTPResponse(response), data: data))
    }

    static func collect(_ hop: Exchange.Hop, timeout: TimeAmount?, limit: Int) async throws -> Data {
        var data = Data()
        try await hop.readBody(timeout: timeout) { chunk in
            guard data.count + chunk.readableBytes <= limit else {
                throw RuntimeFailure("the response body is larger than \(limit) bytes")
            }
            data.append(contentsOf: chunk.readableBytesView)
        }
        return data
    }

    /// What `--curl` prints: the request as curl sends it, with the options that change how
    /// it is sent (redirects, certificate checks, a client certificate) as curl's own.
    private func curlCommand(_ request: URLRequest, form: MultipartFormData?) async throws -> CurlCommand {
        var serialized = try SerializedRequest(request)
        if let form { serialized.body = .multipart(form) }
        var command = try await serialized.curlCommand(bodyFile: options.writeBody.map { URL(fileURLWithPath: $0) })
        var sending: [String] = []
        if options.follow { sending += ["--location", "--max-redirs", String(options.maxRedirects)] }
        switch options.verify?.lowercased() {
        case nil, "yes", "true": break
        case "no", "false": sending.append("--insecure")
        default: sending += ["--cacert", options.verify ?? ""]
        }
        if let cert = options.cert { sending += ["--cert", cert, "--key", options.certKey ?? cert] }
        if let timeout = options.timeout { sending += ["--connect-timeout", String(timeout)] }
        command.arguments.insert(contentsOf: sending, at: 2)
        return command
    }

    private func writeBody(_ request: URLRequest, form: MultipartFormData?, to file: URL) async throws {
        if let form {
            try await form.writeEncodedBody(to: file)
        } else {
            do {
                try (request.httpBody ?? Data()).write(to: file)
            } catch {
                throw RequestSerializationError.fileWriteFailed(path: file.path, reason: "\(error)")
            }
        }
    }
}
