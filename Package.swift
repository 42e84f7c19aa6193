// swift-tools-version: 6.1
import PackageDescription

let strictness: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "swift-http-serialization",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "HTTPSerialization", targets: ["HTTPSerialization"]),
        .library(name: "EchoServer", targets: ["EchoServer"]),
        .library(name: "HTTPSerializationAsyncHTTPClient", targets: ["HTTPSerializationAsyncHTTPClient"]),
        .executable(name: "httpser", targets: ["httpser"]),
    ],
    dependencies: [
        // Server pieces and test peers only; the HTTPSerialization library uses Foundation alone.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/vapor/multipart-kit", from: "4.7.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // The library: Foundation, plus the system's libpng and libjpeg on Linux for images.
        .target(
            name: "HTTPSerialization",
            dependencies: ["CImageCodecs"],
            swiftSettings: strictness
        ),
        // PNG and JPEG decoding with the libraries' longjmp error paths kept in C.
        .target(
            name: "CImageCodecs",
            linkerSettings: [
                .linkedLibrary("png16", .when(platforms: [.linux])),
                .linkedLibrary("jpeg", .when(platforms: [.linux])),
            ]
        ),
        // SHA-256 for digest checks and echo reports; not a product.
        .target(
            name: "Checksums",
            dependencies: ["CSHA256"],
            swiftSettings: strictness
        ),
        .target(name: "CSHA256"),
        // Seeded inputs shared by the benchmarks and the property tests; not a product.
        .target(
            name: "SeededGenerators",
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
                "Checksums",
            ],
            swiftSettings: strictness
        ),
        // Sends serialized requests and streamed multipart bodies with async-http-client.
        .target(
            name: "HTTPSerializationAsyncHTTPClient",
            dependencies: [
                "HTTPSerialization",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
            ],
            swiftSettings: strictness
        ),
        // The command-line tool's logic, testable in-process.
        .target(
            name: "HTTPSerCLI",
            dependencies: [
                "HTTPSerialization", "HTTPSerializationAsyncHTTPClient", "EchoServer", "Checksums",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: strictness
        ),
        // `swift run httpser demo`: the package's main job.
        .executableTarget(
            name: "httpser",
            dependencies: ["HTTPSerCLI", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "HTTPSerializationTests",
            dependencies: [
                "HTTPSerialization", "SeededGenerators", "EchoServer", "HTTPSerializationAsyncHTTPClient", "HTTPSerCLI",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                // An independent multipart parser to check our bodies against.
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
                "CImageCodecs",
            ],
            swiftSettings: strictness
        ),
        // `swift run -c release httpser-bench`: ratios against peers measured in the same run.
        .executableTarget(
            name: "httpser-bench",
            dependencies: [
                "HTTPSerialization", "SeededGenerators", "Checksums", "EchoServer", "HTTPSerializationAsyncHTTPClient",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Benchmarks/HTTPSerializationBenchmarks",
            swiftSettings: strictness
        ),
    ]
)
