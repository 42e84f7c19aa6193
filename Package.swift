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
    ],
    dependencies: [
        // Server pieces and test peers only; the HTTPSerialization library uses Foundation alone.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/vapor/multipart-kit", from: "4.7.1"),
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
            swiftSettings: strictness
        ),
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
                .product(name: "MultipartKit", package: "multipart-kit"),
                "Checksums",
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "HTTPSerializationTests",
            dependencies: [
                "HTTPSerialization", "SeededGenerators", "EchoServer",
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
                "HTTPSerialization", "SeededGenerators", "Checksums",
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Benchmarks/HTTPSerializationBenchmarks",
            swiftSettings: strictness
        ),
    ]
)
