// swift-tools-version: 6.1
import PackageDescription

// The package's development side: the loopback echo server, the `httpser` tool and the
// benchmarks, with the dependencies they need. It sits in its own package so that apps
// depending on swift-http-serialization never resolve swift-nio, async-http-client,
// swift-argument-parser, multipart-kit, swift-openapi-runtime, Vapor or Hummingbird. The root package's tests depend on it, which is
// also what lets `swift run httpser demo` and `swift run httpser-bench` work from the root.

// The whole-tree ThreadSanitizer run (`Scripts/tsan.sh`) sets HTTPSERIALIZATION_NO_MACROS=1: the macro runs in the compiler,
// its output is single-threaded code the plain test run covers, and swift-syntax built with
// ThreadSanitizer cost that run minutes.
let macros = Context.environment["HTTPSERIALIZATION_NO_MACROS"] == nil
let rootTraits: Set<Package.Dependency.Trait> = macros
    ? ["AsyncHTTPClient", "Hummingbird", "Vapor", "Macros"] : ["AsyncHTTPClient", "Hummingbird", "Vapor"]

let strictness: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

// One module per library product, importing that product alone and using what the README's
// product table says it holds (ProductChecks/README.md): a product that stops holding it
// fails the build.
let productChecks: [(String, String)] = [
    ("Core", "HTTPSerializationCore"), ("Codable", "HTTPSerializationCodable"),
    ("Foundation", "HTTPSerializationFoundation"), ("XML", "HTTPSerializationXML"),
    ("Images", "HTTPSerializationImages"), ("Compression", "HTTPSerializationCompression"),
    ("All", "HTTPSerialization"), ("AsyncHTTPClient", "HTTPSerializationAsyncHTTPClient"),
    ("Hummingbird", "HTTPSerializationHummingbird"), ("Vapor", "HTTPSerializationVapor"),
] + (macros ? [("Macros", "HTTPSerializationMacros")] : [])
let productCheckTargets: [Target] = productChecks.map { folder, product in
    var dependencies: [Target.Dependency] = [.product(name: product, package: "swift-http-serialization")]
    if folder == "AsyncHTTPClient" { dependencies.append(.product(name: "AsyncHTTPClient", package: "async-http-client")) }
    if folder == "Hummingbird" { dependencies.append(.product(name: "Hummingbird", package: "hummingbird")) }
    if folder == "Vapor" { dependencies.append(.product(name: "Vapor", package: "vapor")) }
    return .target(name: "ProductCheck\(folder)", dependencies: dependencies, path: "ProductChecks/\(folder)", swiftSettings: strictness)
}

let package = Package(
    name: "Development",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "EchoServer", targets: ["EchoServer"]),
        .library(name: "HTTPSerCLI", targets: ["HTTPSerCLI"]),
        .library(name: "SeededGenerators", targets: ["SeededGenerators"]),
        .library(name: "Checksums", targets: ["Checksums"]),
        .library(name: "ServerTestSupport", targets: ["ServerTestSupport"]),
        .executable(name: "httpser", targets: ["httpser"]),
        .executable(name: "httpser-bench", targets: ["httpser-bench"]),
        .executable(name: "bridge-link-check", targets: ["bridge-link-check"]),
        .library(name: "ServerSnippets", type: .static, targets: ["ServerSnippets"]),
        .library(name: "ProductChecks", type: .static, targets: productCheckTargets.map(\.name)),
    ],
    dependencies: [
        .package(name: "swift-http-serialization", path: "..", traits: rootTraits),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/vapor/multipart-kit", from: "4.7.1"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Vapor's URLEncodedFormDecoder is the form decoders' benchmark peer; Vapor and
        // Hummingbird compile the server article's routes (ServerSnippets).
        .package(url: "https://github.com/vapor/vapor", from: "4.122.3"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    ],
    targets: productCheckTargets + [
        // SHA-256 for digest checks and echo reports.
        .target(
            name: "Checksums",
            dependencies: ["CSHA256"],
            swiftSettings: strictness
        ),
        .target(name: "CSHA256"),
        // Seeded inputs shared by the benchmarks and the property tests.
        .target(
            name: "SeededGenerators",
            swiftSettings: strictness
        ),
        // The server integrations' live tests: a paced raw client and an endless event source.
        .target(
            name: "ServerTestSupport",
            dependencies: [
                .product(name: "HTTPSerializationCore", package: "swift-http-serialization"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictness
        ),
        // A loopback HTTP server that reports exactly what it received.
        .target(
            name: "EchoServer",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                // Already resolved for async-http-client: gzip for the streamed routes.
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                "Checksums", "SeededGenerators",
                // Its own multipart parser reads the uploads it reports.
                .product(name: "HTTPSerializationCore", package: "swift-http-serialization"),
            ],
            swiftSettings: strictness
        ),
        // The command-line tool's logic, testable in-process.
        .target(
            name: "HTTPSerCLI",
            dependencies: [
                "EchoServer", "Checksums",
                .product(name: "HTTPSerialization", package: "swift-http-serialization"),
                .product(name: "HTTPSerializationAsyncHTTPClient", package: "swift-http-serialization"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strictness
        ),
        // `swift run httpser demo`: the package's main job.
        .executableTarget(
            name: "httpser",
            dependencies: ["HTTPSerCLI", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strictness
        ),
        // `swift run -c release httpser-bench`: ratios against peers measured in the same run.
        .executableTarget(
            name: "httpser-bench",
            dependencies: [
                "SeededGenerators", "Checksums", "EchoServer",
                .product(name: "HTTPSerialization", package: "swift-http-serialization"),
                .product(name: "HTTPSerializationAsyncHTTPClient", package: "swift-http-serialization"),
                .product(name: "HTTPSerializationMacros", package: "swift-http-serialization"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Vapor", package: "vapor"),
                // §5: the same routes on both frameworks, their coders against ours.
                .product(name: "HTTPSerializationHummingbird", package: "swift-http-serialization"),
                .product(name: "HTTPSerializationVapor", package: "swift-http-serialization"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            path: "Benchmarks/HTTPSerializationBenchmarks",
            swiftSettings: strictness
        ),
        // The routes of the article "Reading uploads on a server", compiled by CI
        // (`swift build --product ServerSnippets`): the adapters, and the Codable layer for the
        // routes written by hand, never the umbrella.
        .target(
            name: "ServerSnippets",
            dependencies: [
                .product(name: "HTTPSerializationCodable", package: "swift-http-serialization"),
                .product(name: "HTTPSerializationHummingbird", package: "swift-http-serialization"),
                .product(name: "HTTPSerializationVapor", package: "swift-http-serialization"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Vapor", package: "vapor"),
            ],
            path: "Snippets/ServerSnippets",
            swiftSettings: strictness
        ),
        // An app on the async-http-client bridge and the core alone, built in the tree CI has
        // already built, so `Scripts/link-check.sh --bridge` reads its `ldd` in seconds.
        .executableTarget(
            name: "bridge-link-check",
            dependencies: [
                .product(name: "HTTPSerializationAsyncHTTPClient", package: "swift-http-serialization"),
                .product(name: "HTTPSerializationCore", package: "swift-http-serialization"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            path: "LinkCheck/Bridge",
            swiftSettings: strictness
        ),
    ]
)
