// swift-tools-version: 6.2
import CompilerPluginSupport
import PackageDescription

let strictness: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

// One package, one graph, no environment variable. What an app resolves is decided by SwiftPM
// alone: it leaves out the dependencies of test targets, of targets no product holds (the tool,
// the echo server, the benchmarks, the product checks, all under `Development/`), and of
// traits the app turns off. The four traits below are on by default, so each product works as
// it is named and the README's `swift run httpser demo` and `swift test` run everything; an app
// that names its traits resolves those traits' packages and swift-http-types, nothing else
// (`Scripts/link-check.sh` checks an app with `traits: []`).
let asyncHTTPClientTrait: Set<String> = ["AsyncHTTPClient"]
let hummingbirdTrait: Set<String> = ["Hummingbird"]
let vaporTrait: Set<String> = ["Vapor"]
let macrosTrait: Set<String> = ["Macros"]

// swift-syntax is reached only through the `Macros` trait, so an app that turns it off
// resolves none of it; the plugin's tests follow the same rule.
func swiftSyntax(_ names: String...) -> [Target.Dependency] {
    names.map { .product(name: $0, package: "swift-syntax", condition: .when(traits: macrosTrait)) }
}

// `@GeneratedJSONCoding`: the compiler plugin and the target that declares it.
let macroTargets: [Target] = [
    // The compiler plugin behind `@GeneratedJSONCoding`. SwiftPM decides which targets are
    // reachable before it reads conditions, so every edge to swift-syntax is conditional
    // too, and without the trait the sources compile to an empty program.
    .macro(
        name: "HTTPSerializationMacroPlugin",
        dependencies: swiftSyntax("SwiftSyntax", "SwiftSyntaxMacros", "SwiftSyntaxBuilder", "SwiftDiagnostics", "SwiftCompilerPlugin"),
        swiftSettings: strictness
    ),
    // The macro's declaration, over the Codable layer it re-exports.
    .target(
        name: "HTTPSerializationMacros",
        dependencies: [
            "HTTPSerializationCodable",
            .target(name: "HTTPSerializationMacroPlugin", condition: .when(traits: macrosTrait)),
        ],
        swiftSettings: strictness
    ),
]

// The library's targets, one per product, and the C shims under them.
let libraryTargets: [Target] = [
    // The umbrella: re-exports every layer and nothing else.
    .target(
        name: "HTTPSerialization",
        dependencies: [
            "HTTPSerializationCore", "HTTPSerializationCodable", "HTTPSerializationFoundation", "HTTPSerializationXML",
            "HTTPSerializationImages", "HTTPSerializationCompression", "HTTPSerializationCompound",
            .product(name: "HTTPTypes", package: "swift-http-types"),
        ],
        swiftSettings: strictness
    ),
    // AFNetworking's compound response serializer, which holds and archives a serializer of
    // any layer, so it sits above them all; the umbrella re-exports it.
    .target(
        name: "HTTPSerializationCompound",
        dependencies: [
            "HTTPSerializationCore", "HTTPSerializationFoundation", "HTTPSerializationXML", "HTTPSerializationImages",
        ],
        swiftSettings: strictness
    ),
    // FoundationEssentials (Foundation where it does not exist) and swift-http-types.
    .target(
        name: "HTTPSerializationCore",
        dependencies: [.product(name: "HTTPTypes", package: "swift-http-types")],
        swiftSettings: strictness
    ),
    .target(
        name: "HTTPSerializationCodable",
        dependencies: ["HTTPSerializationCore", .product(name: "HTTPTypes", package: "swift-http-types")],
        swiftSettings: strictness
    ),
    .target(
        name: "HTTPSerializationFoundation",
        dependencies: ["HTTPSerializationCore", "HTTPSerializationCodable", .product(name: "HTTPTypes", package: "swift-http-types")],
        swiftSettings: strictness
    ),
    .target(
        name: "HTTPSerializationXML",
        dependencies: ["HTTPSerializationCore", .product(name: "HTTPTypes", package: "swift-http-types")],
        swiftSettings: strictness
    ),
    .target(
        name: "HTTPSerializationImages",
        dependencies: ["HTTPSerializationCore", "CImageCodecs", .product(name: "HTTPTypes", package: "swift-http-types")],
        swiftSettings: strictness
    ),
    .target(
        name: "HTTPSerializationCompression",
        dependencies: ["HTTPSerializationCore", "CZlib", .product(name: "HTTPTypes", package: "swift-http-types")],
        swiftSettings: strictness
    ),
    // zlib's init macros as functions Swift can call.
    .target(
        name: "CZlib",
        linkerSettings: [.linkedLibrary("z")]
    ),
    // PNG and JPEG decoding with the libraries' longjmp error paths kept in C.
    .target(
        name: "CImageCodecs",
        linkerSettings: [
            .linkedLibrary("png16", .when(platforms: [.linux])),
            .linkedLibrary("jpeg", .when(platforms: [.linux])),
        ]
    ),
    // Sends serialized requests and streamed multipart bodies with async-http-client;
    // empty when an app turns the `AsyncHTTPClient` trait off.
    .target(
        name: "HTTPSerializationAsyncHTTPClient",
        // The core only: a server app on the bridge links no libFoundation, libcurl, libxml2,
        // libpng or libjpeg (`Scripts/link-check.sh HTTPSerializationAsyncHTTPClient`).
        dependencies: [
            "HTTPSerializationCore",
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: asyncHTTPClientTrait)),
            .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: asyncHTTPClientTrait)),
            .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: asyncHTTPClientTrait)),
            .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: asyncHTTPClientTrait)),
            .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: asyncHTTPClientTrait)),
        ],
        swiftSettings: strictness
    ),
    // Hummingbird's coders on this package; empty when an app turns the `Hummingbird` trait off.
    .target(
        name: "HTTPSerializationHummingbird",
        dependencies: [
            "HTTPSerializationCore", "HTTPSerializationCodable",
            .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: hummingbirdTrait)),
            .product(name: "HummingbirdCore", package: "hummingbird", condition: .when(traits: hummingbirdTrait)),
            .product(name: "Logging", package: "swift-log", condition: .when(traits: hummingbirdTrait)),
            .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: hummingbirdTrait)),
        ],
        swiftSettings: strictness
    ),
    // Vapor's coders on this package; empty when an app turns the `Vapor` trait off.
    .target(
        name: "HTTPSerializationVapor",
        dependencies: [
            "HTTPSerializationCore", "HTTPSerializationCodable",
            .product(name: "Vapor", package: "vapor", condition: .when(traits: vaporTrait)),
        ],
        swiftSettings: strictness
    ),
]

// One module per library product, importing that product's module alone and using what the
// README's product table says it holds (Development/ProductChecks/README.md): a product that
// stops holding it fails the build. Like every target of the package, they are built by
// `swift build` and by the tests' build, the README's `swift test` included.
let productCheckTargets: [Target] = [
    ("Core", "HTTPSerializationCore", []), ("Codable", "HTTPSerializationCodable", []),
    ("Foundation", "HTTPSerializationFoundation", []), ("XML", "HTTPSerializationXML", []),
    ("Images", "HTTPSerializationImages", []), ("Compression", "HTTPSerializationCompression", []),
    ("All", "HTTPSerialization", []), ("Macros", "HTTPSerializationMacros", []),
    ("AsyncHTTPClient", "HTTPSerializationAsyncHTTPClient", [.product(name: "AsyncHTTPClient", package: "async-http-client")]),
    ("Hummingbird", "HTTPSerializationHummingbird", [.product(name: "Hummingbird", package: "hummingbird")]),
    ("Vapor", "HTTPSerializationVapor", [.product(name: "Vapor", package: "vapor")]),
].map { (folder: String, module: String, peers: [Target.Dependency]) in
    .target(
        name: "ProductCheck\(folder)", dependencies: [.target(name: module)] + peers,
        path: "Development/ProductChecks/\(folder)", swiftSettings: strictness
    )
}

// One test target per module (the core and compression with no Foundation), and the
// integration tests, which reach the echo server, the tool and the peers checked against.
let testTargets: [Target] = [
    // The core alone, as an app on it sees it: no Foundation, no upper layer.
    .testTarget(
        name: "HTTPSerializationCoreTests",
        dependencies: ["HTTPSerializationCore", .product(name: "HTTPTypes", package: "swift-http-types")],
        // JSONTestSuite's cases, read from the source tree by their test.
        exclude: ["Fixtures"],
        swiftSettings: strictness
    ),
    // The compression module alone, with no Foundation.
    .testTarget(
        name: "HTTPSerializationCompressionTests",
        dependencies: ["HTTPSerializationCompression", "HTTPSerializationCore", .product(name: "HTTPTypes", package: "swift-http-types")],
        swiftSettings: strictness
    ),
    // The macro's expansions and refusals, checked on source text.
    .testTarget(
        name: "HTTPSerializationMacroPluginTests",
        dependencies: [.target(name: "HTTPSerializationMacroPlugin", condition: .when(traits: macrosTrait))]
            + swiftSyntax("SwiftSyntaxMacrosGenericTestSupport", "SwiftSyntaxMacroExpansion", "SwiftSyntax", "SwiftSyntaxMacros"),
        swiftSettings: strictness
    ),
    // The Hummingbird integration through Hummingbird's own test client.
    .testTarget(
        name: "HTTPSerializationHummingbirdTests",
        dependencies: [
            "HTTPSerializationHummingbird", "HTTPSerializationCore", "HTTPSerializationCodable", "ServerTestSupport",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdTesting", package: "hummingbird"),
        ],
        swiftSettings: strictness
    ),
    // The Vapor integration through VaporTesting and a live server.
    .testTarget(
        name: "HTTPSerializationVaporTests",
        dependencies: [
            "HTTPSerializationVapor", "HTTPSerializationCore", "HTTPSerializationCodable", "ServerTestSupport",
            .product(name: "Vapor", package: "vapor"),
            .product(name: "VaporTesting", package: "vapor"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
        ],
        swiftSettings: strictness
    ),
    .testTarget(
        name: "HTTPSerializationTests",
        dependencies: [
            "HTTPSerialization", "HTTPSerializationAsyncHTTPClient", "HTTPSerializationMacros", "CImageCodecs",
            "EchoServer", "HTTPSerCLI", "SeededGenerators", "Checksums",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "MultipartKit", package: "multipart-kit"),
            .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
        ],
        // Recorded HTTPie requests, read from the source tree by their test.
        exclude: ["Fixtures"],
        swiftSettings: strictness
    ),
]

// What the library's users never resolve, since no product holds it: the loopback echo server,
// the `httpser` tool, the benchmarks and what they share, under `Development/`.
let developmentTargets: [Target] = [
    // SHA-256 for digest checks and echo reports.
    .target(name: "Checksums", dependencies: ["CSHA256"], path: "Development/Sources/Checksums", swiftSettings: strictness),
    .target(name: "CSHA256", path: "Development/Sources/CSHA256"),
    // Seeded inputs shared by the benchmarks and the property tests.
    .target(name: "SeededGenerators", path: "Development/Sources/SeededGenerators", swiftSettings: strictness),
    // The server integrations' live tests: a paced raw client and an endless event source.
    .target(
        name: "ServerTestSupport",
        dependencies: ["HTTPSerializationCore", .product(name: "Logging", package: "swift-log")],
        path: "Development/Sources/ServerTestSupport",
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
            "HTTPSerializationCore",
        ],
        path: "Development/Sources/EchoServer",
        swiftSettings: strictness
    ),
    // The command-line tool's logic, testable in-process.
    .target(
        name: "HTTPSerCLI",
        dependencies: [
            "EchoServer", "Checksums", "HTTPSerialization", "HTTPSerializationAsyncHTTPClient",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
        ],
        path: "Development/Sources/HTTPSerCLI",
        swiftSettings: strictness
    ),
    // `swift run httpser demo`: the package's main job.
    .executableTarget(
        name: "httpser",
        dependencies: ["HTTPSerCLI", .product(name: "ArgumentParser", package: "swift-argument-parser")],
        path: "Development/Sources/httpser",
        swiftSettings: strictness
    ),
    // `swift run -c release httpser-bench`: ratios against peers measured in the same run.
    .executableTarget(
        name: "httpser-bench",
        dependencies: [
            "SeededGenerators", "Checksums", "EchoServer",
            "HTTPSerialization", "HTTPSerializationAsyncHTTPClient", "HTTPSerializationMacros",
            // The same routes on both frameworks, their coders against ours.
            "HTTPSerializationHummingbird", "HTTPSerializationVapor",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "MultipartKit", package: "multipart-kit"),
            .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "Vapor", package: "vapor"),
            .product(name: "Hummingbird", package: "hummingbird"),
        ],
        path: "Development/Benchmarks/HTTPSerializationBenchmarks",
        swiftSettings: strictness
    ),
    // The routes of the article "Reading uploads on a server", built with the rest of the
    // package: the adapters, and the Codable layer for the routes written by hand, never the umbrella.
    .target(
        name: "ServerSnippets",
        dependencies: [
            "HTTPSerializationCodable", "HTTPSerializationHummingbird", "HTTPSerializationVapor",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Vapor", package: "vapor"),
        ],
        path: "Development/Snippets/ServerSnippets",
        swiftSettings: strictness
    ),
    // An app on the async-http-client bridge and the core alone, built in the tree CI has
    // already built, so `Scripts/link-check.sh --bridge` reads its `ldd` in seconds.
    .executableTarget(
        name: "bridge-link-check",
        dependencies: [
            "HTTPSerializationAsyncHTTPClient", "HTTPSerializationCore",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
        ],
        path: "Development/LinkCheck/Bridge",
        swiftSettings: strictness
    ),
]

let package = Package(
    name: "swift-http-serialization",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        // Everything AFNetworking had: the four layers below in one import.
        .library(name: "HTTPSerialization", targets: ["HTTPSerialization"]),
        // Parameters, query strings, JSON, multipart, headers and validation over
        // swift-http-types, with FoundationEssentials only: no libcurl, libxml2 or ICU.
        .library(name: "HTTPSerializationCore", targets: ["HTTPSerializationCore"]),
        // Codable models as parameters and bodies: JSONBodyEncoder, JSONBodyDecoder,
        // DecodableResponseSerializer, ParameterValue(encoding:). FoundationEssentials only.
        .library(name: "HTTPSerializationCodable", targets: ["HTTPSerializationCodable"]),
        // URLRequest, URLResponse, URLSession, [String: Any], property lists and NSError.
        .library(name: "HTTPSerializationFoundation", targets: ["HTTPSerializationFoundation"]),
        // XMLParser and XMLDocument response serializers (FoundationXML, libxml2).
        .library(name: "HTTPSerializationXML", targets: ["HTTPSerializationXML"]),
        // Image response serializer (libpng and libjpeg on Linux).
        .library(name: "HTTPSerializationImages", targets: ["HTTPSerializationImages"]),
        // gzip and deflate bodies, streamed or whole, with limits against decompression bombs
        // (the system's zlib).
        .library(name: "HTTPSerializationCompression", targets: ["HTTPSerializationCompression"]),
        .library(name: "HTTPSerializationAsyncHTTPClient", targets: ["HTTPSerializationAsyncHTTPClient"]),
        // Hummingbird 2's request decoder, response encoder and streamed responses on this
        // package; empty when an app turns the `Hummingbird` trait off.
        .library(name: "HTTPSerializationHummingbird", targets: ["HTTPSerializationHummingbird"]),
        // Vapor 4's content coders, streamed multipart reads and streamed responses on this
        // package; empty when an app turns the `Vapor` trait off.
        .library(name: "HTTPSerializationVapor", targets: ["HTTPSerializationVapor"]),
        // `@GeneratedJSONCoding`: readers generated per model, past what `Decodable` can reach;
        // the Codable layer alone when an app turns the `Macros` trait off.
        .library(name: "HTTPSerializationMacros", targets: ["HTTPSerializationMacros"]),
    ],
    traits: [
        .trait(
            name: "AsyncHTTPClient",
            description: "Builds HTTPSerializationAsyncHTTPClient, which sends requests and streamed multipart bodies with swift-server/async-http-client."
        ),
        .trait(
            name: "Hummingbird",
            description: "Builds HTTPSerializationHummingbird: this package's JSON, form and multipart decoding, JSON encoding and streamed responses as Hummingbird 2's coders."
        ),
        .trait(
            name: "Vapor",
            description: "Builds HTTPSerializationVapor: this package's JSON, form, query and multipart coders as Vapor 4's content configuration, and streamed responses."
        ),
        .trait(
            name: "Macros",
            description: "Declares @GeneratedJSONCoding in HTTPSerializationMacros, which writes each model's JSON reader and writer at compile time (builds swift-syntax)."
        ),
        // Every product works as it is named; an app that wants to resolve less names its
        // traits (`traits: []` for none) and resolves only swift-http-types.
        .default(enabledTraits: ["AsyncHTTPClient", "Hummingbird", "Vapor", "Macros"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // The traits' packages.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/vapor", from: "4.122.3"),
        // swift-syntax releases track Swift's (600 is Swift 6.0), and the compiler and the
        // plugin agree on a protocol across them.
        .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.1"..<"604.0.0"),
        // Development only (tests, the tool, the benchmarks, the documentation plugin): no
        // product reaches them, so apps never resolve them. multipart-kit and
        // swift-openapi-runtime are independent multipart and event-stream parsers, the
        // oracles ours are checked against (mattt/EventSource 1.1.1 does not build on Linux).
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/vapor/multipart-kit", from: "4.7.1"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: libraryTargets + macroTargets + testTargets + productCheckTargets + developmentTargets
)
