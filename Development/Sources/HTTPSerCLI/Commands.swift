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
    public static let version = "0.2.0"

    public static let configuration = CommandConfiguration(
        commandName: "httpser",
        abstract: "Serialize, send and decode HTTP requests the AFNetworking way.",
        version: version,
        subcommands: [Send.self, Serve.self, Demo.self],
        defaultSubcommand: Send.self,
        // -h is HTTPie's --headers; help is --help.
        helpNames: [.long])

    public init() {}
}

public struct Send: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send a request (the default command): httpser [METHOD] URL [ITEM ...], as HTTPie takes it.",
        discussion: """
            The method is optional: GET without data, POST with it. A URL without a
            scheme gets http://, :3000/path is http://localhost:3000/path, and user
            info (http://user:pass@host) becomes Basic auth.

            Request items:
              name=value     a string field; a[b][]=x nests (JSON)
              name:=json     a raw JSON value: n:=1 ok:=true list:='[1,2]'
              name=@file     a string field from a file
              name:=@file    a JSON value from a file
              name==value    a URL query parameter (name==@file: from a file)
              Header:value   a request header
              Header:        removes a header; Header; sends it empty
              field@path     a file part (field@path;type=image/png)
              @path          the file is the whole body
            A backslash makes a separator literal: a\\=b=c is the field "a=b".

            Standard input, when it is not a terminal, is the body
            (--ignore-stdin skips it).

            Examples:
              httpser example.com/search q==swift page==2
              httpser -f POST example.com/login user=ann password=secret
              httpser :8080/items name=pen price:=1.5 tags[]=office
              httpser -v --offline -f --boundary B example.com/up photo@cat.png
              echo '{"a":1}' | httpser PUT example.com/items/1
              httpser -d example.com/files/report.pdf
              httpser --events :8080/sse | jq -r .data
            """)

    // Body
    @Flag(name: [.customShort("j"), .long], help: "Send data items as JSON (the default).") var json = false
    @Flag(name: [.customShort("f"), .long], help: "Send data items as a form; with file items, as multipart/form-data.") var form = false
    @Flag(help: "Send a multipart/form-data body even without file items.") var multipart = false
    @Flag(help: "Send data items as an XML property list.") var plist = false
    @Option(help: "The multipart boundary (for reproducible bodies).") var boundary: String?
    @Option(help: "TEXT is the request body, as it is.") var raw: String?
    @Flag(name: [.customShort("I"), .customLong("ignore-stdin")], help: "Do not read a body from standard input.") var ignoreStdin = false
    @Option(help: "Limit the upload: at most BYTES per packet, SECONDS between packets (BYTES:SECONDS).") var throttle: String?

    // Request
    @Option(name: [.customShort("a"), .long], help: "Credentials: USER:PASS for basic, the token for bearer.") var auth: String?
    @Option(name: [.customShort("A"), .customLong("auth-type")], help: "basic (the default) or bearer.") var authType = "basic"
    @Option(help: "Check the server's certificate: yes (the default), no, or a PEM file of trusted CAs.") var verify: String?
    @Option(help: "A PEM client certificate, with its key unless --cert-key names another file.") var cert: String?
    @Option(name: .customLong("cert-key"), help: "The PEM private key of --cert.") var certKey: String?
    @Option(help: "Seconds to wait for the connection and for each read (no limit by default).") var timeout: Double?
    @Flag(name: [.customShort("F"), .long], help: "Follow redirects (off by default).") var follow = false
    @Option(name: .customLong("max-redirects"), help: "The most redirects --follow takes.") var maxRedirects = 30
    @Option(name: .customLong("default-scheme"), help: "The scheme of a URL given without one.") var defaultScheme = "http"
    @Flag(help: "Print the request that would be sent, exactly, and send nothing.") var offline = false
    @Flag(help: "Print a curl command that sends the same request, and send nothing; a body that is not short text is written to a file (--write-body FILE, or a temporary one) the command reads.") var curl = false

    // Output
    @Option(name: [.customShort("p"), .long], help: "What to print: H request headers, B request body, h response headers, b response body.") var print: String?
    @Flag(name: [.customShort("v"), .long], help: "Print the request and the response (--print=HBhb).") var verbose = false
    @Flag(name: [.customShort("h"), .long], help: "Print only the response headers (--print=h).") var headers = false
    @Flag(name: [.customShort("b"), .long], help: "Print only the response body (--print=b).") var body = false
    @Flag(name: [.customShort("q"), .long], help: "Print nothing but errors.") var quiet = false
    @Flag(help: "With --follow, also print the responses redirected from.") var all = false
    @Option(help: "Colours and formatting: all, colors, format or none (all on a terminal, none otherwise).") var pretty: Pretty?
    @Flag(name: [.customShort("d"), .long], help: "Save the body to a file named from the response (or --output), with a progress bar.") var download = false
    @Flag(name: [.customShort("c"), .customLong("continue")], help: "With --download and --output, resume a partial file.") var resume = false
    @Option(name: [.customShort("o"), .long], help: "Write the output (or the download) to FILE.") var output: String?
    @Flag(name: [.customShort("S"), .long], help: "Print the response body as it arrives, unformatted (for bodies that go on).") var stream = false
    @Flag(help: "Read the response as server-sent events and print each as one JSON object a line: {\"event\",\"data\",\"id\",\"retry\"}, absent fields left out.") var events = false
    @Flag(name: .customLong("check-status"), help: "Exit 3, 4 or 5 for a 3xx, 4xx or 5xx response.") var checkStatus = false
    @Option(help: "Acceptable response content types, comma-separated; others are an error.") var accept: String?
    @Option(name: .customLong("write-body"), help: "Also write the request body to FILE.") var writeBody: String?

    @Argument(help: "[METHOD] URL [ITEM ...]") var arguments: [String] = []

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
        console.error("routes: /status/CODE /json /xml /plist /png /empty /respond?status=&type=&body= /redirect?status=&to= /bytes/N?name= /sse?count=&pause=&hold= /ndjson?count= /json-array?count= (compress=1 gzips); anything else is echoed\n")
        return server
    }
}

public struct Demo: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        abstract: "A tour against an embedded loopback echo server; exits 0 only if every step checks out.")

    @Option(name: .customLong("upload-mib"), help: "Size of the generated upload, in MiB.") var uploadMiB: Int = 64

    public init() {}

    public func run() async throws {
        let passed = await DemoRunner(console: Console.standard(), uploadBytes: uploadMiB << 20).run()
        if !passed { throw ExitCode(1) }
    }
}

