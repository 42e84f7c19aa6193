import ArgumentParser
import AsyncHTTPClient
import EchoServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPSerialization
import HTTPSerializationAsyncHTTPClient

/// `httpser`: build requests with the package's serializers, show them, send them, and
/// decode the responses.
@available(macOS 10.15, macCatalyst 13, iOS 13, tvOS 13, watchOS 6, *)
public struct HTTPSer: AsyncParsableCommand {
    public static let version = "0.1.0"

    public static let configuration = CommandConfiguration(
        commandName: "httpser",
        abstract: "Serialize, send and decode HTTP requests the AFNetworking way.",
        version: version,
        subcommands: [Send.self, Serve.self, Demo.self],
        defaultSubcommand: Send.self)

    public init() {}
}

public struct Send: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send a request (the default command).",
        discussion: """
            Request items, as in HTTPie:
              name=value        a string field            a[b][]=x  nested names
              name:=json        a raw JSON value          n:=1  ok:=true  list:='[1,2]'
              name==value       a URL query parameter
              Header:value      a request header
              field@path        a file (multipart); field@path;type=image/png sets its type

            Examples:
              httpser GET https://example.com/search q==swift page==2
              httpser --form POST https://example.com/login user=ann password=secret
              httpser POST https://example.com/items name=pen price:=1.5 tags[]=office
              httpser --offline --multipart --boundary B POST http://x/upload photo@cat.png
              httpser --check-status GET http://127.0.0.1:8080/status/404
            """)

    @Flag(help: "Send data items as a form (application/x-www-form-urlencoded).") var form = false
    @Flag(help: "Send data items as JSON (the default when there are data items).") var json = false
    @Flag(help: "Send a multipart/form-data body (the default when there are file items).") var multipart = false
    @Flag(help: "Send data items as an XML property list.") var plist = false
    @Flag(help: "Print the exact request bytes and send nothing.") var offline = false
    @Option(help: "The multipart boundary (for reproducible bodies).") var boundary: String?
    @Option(help: "Limit the upload: at most BYTES per packet, SECONDS between packets (BYTES:SECONDS).") var throttle: String?
    @Option(help: "Basic credentials, USER:PASS.") var auth: String?
    @Option(help: "Seconds to wait for the response.") var timeout: Double?
    @Flag(name: .customLong("check-status"), help: "Exit 3, 4 or 5 for a 3xx, 4xx or 5xx response.") var checkStatus = false
    @Option(help: "Acceptable response content types, comma-separated; others are an error.") var accept: String?
    @Option(help: "Write the response body to FILE instead of showing it.") var output: String?
    @Option(name: .customLong("write-body"), help: "Also write the request body to FILE.") var writeBody: String?
    @Argument(help: "The HTTP method.") var method: String
    @Argument(help: "The URL.") var url: String
    @Argument(help: "Request items.") var items: [String] = []

    public init() {}

    public func run() async throws {
        let code = await SendRunner(options: self, console: Console.standard()).run()
        if code != 0 { throw ExitCode(code) }
    }
}

public struct Serve: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        abstract: "Run the echo server on 127.0.0.1 until interrupted.")

    @Option(help: "The port (0 picks a free one).") var port: Int = 8080

    public init() {}

    public func run() async throws {
        _ = try await Self.start(port: port, console: Console.standard())
        while true { try await Task.sleep(nanoseconds: 3_600_000_000_000) }
    }

    /// Starts the echo server and announces it: first one machine-readable line,
    /// `listening on http://127.0.0.1:PORT`, written straight to the descriptor (never left in
    /// a buffer), so a script can start `serve --port 0` and read the port; the routes go to
    /// standard error.
    public static func start(port: Int, console: Console) async throws -> EchoServer {
        let server = try await EchoServer.start(port: port)
        console.out("listening on \(server.baseURL.absoluteString)\n")
        console.error("routes: /status/CODE /json /xml /plist /png /empty /respond?status=&type=&body=; anything else is echoed\n")
        return server
    }
}

public struct Demo: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        abstract: "A tour against an embedded loopback echo server; exits 0 only if every step checks out.")

    @Option(help: "Size of the generated upload, in MiB.") var uploadMiB: Int = 64

    public init() {}

    public func run() async throws {
        let passed = await DemoRunner(console: Console.standard(), uploadBytes: uploadMiB << 20).run()
        if !passed { throw ExitCode(1) }
    }
}

/// Runs `send` against a console, returning the exit code.
public struct SendRunner {
    let options: Send
    let console: Console

    public init(options: Send, console: Console) {
        self.options = options
        self.console = console
    }

    public func run() async -> Int32 {
        do {
            let (request, form) = try plan().build()
            if let path = options.writeBody {
                try await writeBody(request, form: form, to: URL(fileURLWithPath: path))
            }
            if options.offline {
                console.out(try OfflineRenderer.render(request, form: form))
                return 0
            }
            return try await send(request, form: form)
        } catch let error as RequestItemError {
            console.error("httpser: error: \(error.description)\n")
            return 2
        } catch let error as any HTTPSerializationError {
            console.error("httpser: error: \(error.localizedDescription)\n")
            return 1
        } catch {
            console.error("httpser: error: \(error)\n")
            return 1
        }
    }

    func plan() throws -> RequestPlan {
        let modes = [(options.form, BodyMode.form), (options.json, .json), (options.multipart, .multipart), (options.plist, .plist)]
            .filter(\.0).map(\.1)
        guard modes.count <= 1 else { throw RequestItemError(description: "choose one of --form, --json, --multipart and --plist") }
        var plan = RequestPlan(method: options.method.uppercased(), url: options.url, items: try options.items.map(RequestItems.parse),
                               mode: modes.first, boundary: options.boundary, timeout: options.timeout)
        if let throttle = options.throttle {
            let parts = throttle.split(separator: ":")
            guard parts.count == 2, let bytes = Int(parts[0]), bytes > 0, let seconds = Double(parts[1]), seconds >= 0 else {
                throw RequestItemError(description: "--throttle takes BYTES:SECONDS, such as 16384:0.2")
            }
            plan.throttle = (bytes, seconds)
        }
        if let auth = options.auth {
            guard let colon = auth.firstIndex(of: ":") else { throw RequestItemError(description: "--auth takes USER:PASS") }
            plan.auth = (String(auth[..<colon]), String(auth[auth.index(after: colon)...]))
        }
        return plan
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

    private func send(_ request: URLRequest, form: MultipartFormData?) async throws -> Int32 {
        var serializer = HTTPResponseSerializer(acceptableStatusCodes: nil, acceptableContentTypes: nil)
        if let accept = options.accept {
            serializer.acceptableContentTypes = Set(accept.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        }
        let upload = ProgressBar(label: "upload  ", console: console)
        let download = ProgressBar(label: "download", console: console)
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let result: SerializedResponse<Data?>
        do {
            result = try await client.execute(
                // The limit is the request's timeoutInterval, which --timeout set.
                request, multipartForm: form, serializer: serializer,
                uploadProgress: { upload.update($0) }, downloadProgress: { download.update($0) })
            try await client.shutdown()
        } catch {
            try? await client.shutdown()
            if error is any HTTPSerializationError { throw error }
            console.error("httpser: error: could not complete \(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? ""): \(error)\n")
            return 1
        }
        upload.finish()
        download.finish()
        console.error(ResponseFormatter.head(result.response))
        if let output = options.output {
            do {
                try result.data.write(to: URL(fileURLWithPath: output))
            } catch {
                throw RequestSerializationError.fileWriteFailed(path: output, reason: "\(error)")
            }
        } else {
            do {
                console.out(try ResponseFormatter.format(result.response, data: result.data))
            } catch {
                console.error("httpser: the body could not be decoded (\(error.localizedDescription)); showing it raw\n")
                console.out(result.data)
            }
        }
        let status = result.response.statusCode
        if options.checkStatus, (300..<600).contains(status) { return Int32(status / 100) }
        return 0
    }
}
