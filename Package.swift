// swift-tools-version: 6.1
import CompilerPluginSupport
import PackageDescription

let strictness: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

// What an app resolves depends on this manifest alone: SwiftPM skips dependencies that only
// test targets use, and those of traits the app does not enable. So the library needs
// nothing but Foundation, the async-http-client bridge is the opt-in trait below, and the
// server pieces, the tool and the benchmarks live in the nested package `Development/`,
// which the tests reach and which library users never resolve.
let asyncHTTPClientTrait: Set<String> = ["AsyncHTTPClient"]
let hummingbirdTrait: Set<String> = ["Hummingbird"]
let vaporTrait: Set<String> = ["Vapor"]
let macrosTrait: Set<String> = ["Macros"]

// `Development/` depends back on this package, a package-level cycle SwiftPM builds but its
// plugin host cannot serialize: SwiftPM 6.3 crashes running any plugin here (later versions
// refuse with an error, swiftlang/swift-package-manager#10536). `Scripts/docs.sh` sets
// HTTPSERIALIZATION_DOCS=1 so the documentation plugin sees the library without the tests
// and what only they use.
let buildingDocumentation = Context.environment["HTTPSERIALIZATION_DOCS"] != nil

// CI's ThreadSanitizer step sets HTTPSERIALIZATION_CORE_TESTS=1: only the Foundation-free test
// targets (the core and compression), without `Development` and the servers it brings, whose
// build under ThreadSanitizer cost that step over 12 minutes. `Scripts/tsan.sh` runs the rest.
let coreTestsOnly = Context.environment["HTTPSERIALIZATION_CORE_TESTS"] != nil

// The whole-tree ThreadSanitizer run (`Scripts/tsan.sh`) sets HTTPSERIALIZATION_NO_MACROS=1 (see Development/Package.swift):
// then nothing refers to swift-syntax at all, which SwiftPM cannot resolve when every edge to
// it is conditional and the trait comes from `Development`.
let withoutMacros = Context.environment["HTTPSERIALIZATION_NO_MACROS"] != nil || coreTestsOnly
let swiftSyntaxProducts: [Target.Dependency] = withoutMacros ? [] : [
    .product(name: "SwiftSyntax", package: "swift-syntax", condition: .when(traits: macrosTrait)),
    .product(name: "SwiftSyntaxMacros", package: "swift-syntax", condition: .when(traits: macrosTrait)),
    .product(name: "SwiftSyntaxBuilder", package: "swift-syntax", condition: .when(traits: macrosTrait)),
    .product(name: "SwiftDiagnostics", package: "swift-syntax", condition: .when(traits: macrosTrait)),
    .product(name: "SwiftCompilerPlugin", package: "swift-syntax", condition: .when(traits: macrosTrait)),
]
let swiftSyntaxPackage: [Package.Dependency] = withoutMacros ? [] : [
    // The `Macros` trait's only dependency: swift-syntax releases track Swift's (600 is
    // Swift 6.0), and the compiler and the plugin agree on a protocol across them.
    .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.1"..<"604.0.0"),
]
let macroPluginTests: [Target] = withoutMacros ? [] : [
    // The macro's expansions and refusals, checked on source text.
    .testTarget(
        name: "HTTPSerializationMacroPluginTests",
        dependencies: [
            "HTTPSerializationMacroPlugin",
            .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
            .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
            .product(name: "SwiftSyntax", package: "swift-syntax"),
            .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
        ],
        swiftSettings: strictness
    ),
]

// `@GeneratedJSONCoding`: the compiler plugin and the target that declares it (split out of the
// package's expression, which is otherwise too large to type-check in time).
let macroTargets: [Target] = [
        // The compiler plugin behind `@GeneratedJSONCoding`. SwiftPM decides which targets are
        // reachable before it reads conditions, so every edge to swift-syntax is conditional
        // too, and without the trait the sources compile to an empty program.
        .macro(
            name: "HTTPSerializationMacroPlugin",
            dependencies: swiftSyntaxProducts,
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

// The tests of every layer above the core, which reach `Development`'s servers and tools.
let upperTestTargets: [Target] = coreTestsOnly ? [] : [
    // The Hummingbird integration through Hummingbird's own test client.
    .testTarget(
        name: "HTTPSerializationHummingbirdTests",
        dependencies: [
            "HTTPSerializationHummingbird", "HTTPSerializationCore", "HTTPSerializationCodable",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "ServerTestSupport", package: "Development"),
        ],
        swiftSettings: strictness
    ),
    // The Vapor integration through VaporTesting and a live server.
    .testTarget(
        name: "HTTPSerializationVaporTests",
        dependencies: [
            "HTTPSerializationVapor", "HTTPSerializationCore", "HTTPSerializationCodable",
            .product(name: "Vapor", package: "vapor"),
            .product(name: "VaporTesting", package: "vapor"),
            .product(name: "ServerTestSupport", package: "Development"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
        ],
        swiftSettings: strictness
    ),
    .testTarget(
        name: "HTTPSerializationTests",
        dependencies: [
            "HTTPSerialization", "HTTPSerializationAsyncHTTPClient", "HTTPSerializationMacros", "CImageCodecs",
            .product(name: "EchoServer", package: "Development"),
            .product(name: "HTTPSerCLI", package: "Development"),
            .product(name: "SeededGenerators", package: "Development"),
            .product(name: "Checksums", package: "Development"),
            // Not used by the tests: depending on them makes `swift build --build-tests`
            // compile the server article's routes and the product checks in the tree the
            // tests use, so CI builds that tree once.
            .product(name: "ServerSnippets", package: "Development"),
            .product(name: "ProductChecks", package: "Development"),
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
        // package; empty unless the app enables the `Hummingbird` trait.
        .library(name: "HTTPSerializationHummingbird", targets: ["HTTPSerializationHummingbird"]),
        // Vapor 4's content coders, streamed multipart reads and streamed responses on this
        // package; empty unless the app enables the `Vapor` trait.
        .library(name: "HTTPSerializationVapor", targets: ["HTTPSerializationVapor"]),
        // `@GeneratedJSONCoding`: readers generated per model, past what `Decodable` can reach;
        // the Codable layer alone unless the app enables the `Macros` trait (swift-syntax).
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
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/vapor", from: "4.122.3"),
    ] + swiftSyntaxPackage + (coreTestsOnly ? [] : buildingDocumentation ? [
        // `Scripts/docs.sh`: no target uses it, so apps never resolve it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ] : [
        // Test-only: the echo server, the tool and the seeded generators, and independent
        // multipart and event-stream parsers to check ours against.
        .package(path: "Development"),
        .package(url: "https://github.com/vapor/multipart-kit", from: "4.7.1"),
        // An independent event-stream parser, the oracle of the server-sent events tests
        // (mattt/EventSource 1.1.1 does not build on Linux: it calls URLSession.bytes).
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
    ]),
    targets: [
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
        // empty unless the app enables the `AsyncHTTPClient` trait.
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
        // Hummingbird's coders on this package; empty unless the app enables the `Hummingbird` trait.
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
        // Vapor's coders on this package; empty unless the app enables the `Vapor` trait.
        .target(
            name: "HTTPSerializationVapor",
            dependencies: [
                "HTTPSerializationCore", "HTTPSerializationCodable",
                .product(name: "Vapor", package: "vapor", condition: .when(traits: vaporTrait)),
            ],
            swiftSettings: strictness
        ),
    ] + macroTargets + (buildingDocumentation ? [] : macroPluginTests) + (buildingDocumentation ? [] : [
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
    ] + upperTestTargets)
)
