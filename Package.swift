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
    ],
    targets: [
        // The library: Foundation only.
        .target(
            name: "HTTPSerialization",
            swiftSettings: strictness
        ),
        // Seeded inputs shared by the benchmarks and the property tests; not a product.
        .target(
            name: "SeededGenerators",
            swiftSettings: strictness
        ),
        .testTarget(
            name: "HTTPSerializationTests",
            dependencies: ["HTTPSerialization", "SeededGenerators"],
            swiftSettings: strictness
        ),
        // `swift run -c release httpser-bench`: ratios against peers measured in the same run.
        .executableTarget(
            name: "httpser-bench",
            dependencies: ["HTTPSerialization", "SeededGenerators"],
            path: "Benchmarks/HTTPSerializationBenchmarks",
            swiftSettings: strictness
        ),
    ]
)
