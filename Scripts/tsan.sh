#!/usr/bin/env bash
# The tests under ThreadSanitizer.
#   Scripts/tsan.sh core   the core and compression tests (no Foundation, no servers), in
#                          .build-tsan-core: what CI runs, a few minutes from cold
#   Scripts/tsan.sh        every test target, servers and transports included, in .build-tsan:
#                          about 20 minutes from cold here; run it after changing code that
#                          crosses threads (transports, streamed bodies, the framework layers)
# Both skip the seeded differential batteries: they are single-threaded, so nothing for TSan
# to find, the plain `swift test` runs them, and here they take 5-10x longer.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"
# The same trait order in every process (see .ci/run).
export SWIFT_DETERMINISTIC_HASHING=1

skipped='JSONReaderTests/differentialAgainstFoundation|JSONWriterTests/(matchesJSONSerialization|writeReadWrite)'
skipped+='|JSONBodyEncoderTests/matchesJSONEncoder|JSONFoundationOutputTests/differential'
skipped+='|XMLDifferentialTests/wellFormedAgree|BinaryPropertyListFaultTests/mutations|ResponseFuzzTests'
skipped+='|JSONTapeDecodableTests/(modelsMatchJSONDecoder|arraysMatchJSONDecoder)|JSONBodyDecoderDifferentialTests/modelsMatchJSONDecoder'
# The same for the core's two longest single-threaded tests (a megabytes-long document, and
# 300,000 numbers against the standard library): a minute of the core run between them.
skipped+='|JSONTapeWordsTests/largeDocumentParses|JSONDoubleParsingTests'
# The two pacing tests bound how far a streamed route runs ahead of a client that reads
# nothing; under TSan on two loaded cores the event loop hears "socket full" late enough to
# pass that bound (2,483 blocks against 2,048 once). Their hang-up siblings, which exercise
# the same routes' concurrency, still run.
skipped+='|HummingbirdDisconnectTests/backPressure|VaporStreamTests/backPressure'

case "${1:-}" in
    ""|core) ;;
    *) echo "usage: Scripts/tsan.sh [core]" >&2; exit 2 ;;
esac

# Races TSan reports inside dependencies that are not races: see the file.
export TSAN_OPTIONS="suppressions=$root/.ci/tsan-suppressions.txt${TSAN_OPTIONS:+:$TSAN_OPTIONS}"

if [ "${1:-}" = "core" ]; then
    # A package of its own with the core's, zlib's and compression's sources and the two test
    # folders (symbolic links to this checkout's, so `package` declarations stay visible to the
    # tests) over swift-http-types alone: it builds no server, swift-syntax or upper layer.
    # Its targets are set as Package.swift sets them.
    package="$root/.build-tsan-core/package"
    mkdir -p "$package/Sources" "$package/Tests"
    for module in HTTPSerializationCore HTTPSerializationCompression CZlib; do
        ln -sfn "$root/Sources/$module" "$package/Sources/$module"
    done
    for tests in HTTPSerializationCoreTests HTTPSerializationCompressionTests; do
        ln -sfn "$root/Tests/$tests" "$package/Tests/$tests"
    done
    # The versions this checkout resolved, where it has resolved them.
    rm -f "$package/Package.resolved"
    if [ -f "$root/Package.resolved" ]; then cp "$root/Package.resolved" "$package/Package.resolved"; fi
    cat > "$package/Package.swift" <<'MANIFEST'
// swift-tools-version: 6.2
import PackageDescription
let settings: [SwiftSetting] = [.swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny")]
let httpTypes = Target.Dependency.product(name: "HTTPTypes", package: "swift-http-types")
let package = Package(
    name: "CoreUnderThreadSanitizer",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    dependencies: [.package(url: "https://github.com/apple/swift-http-types", from: "1.8.0")],
    targets: [
        .target(name: "HTTPSerializationCore", dependencies: [httpTypes], swiftSettings: settings),
        .target(name: "CZlib", linkerSettings: [.linkedLibrary("z")]),
        .target(name: "HTTPSerializationCompression", dependencies: ["HTTPSerializationCore", "CZlib", httpTypes], swiftSettings: settings),
        .testTarget(name: "HTTPSerializationCoreTests", dependencies: ["HTTPSerializationCore", httpTypes], exclude: ["Fixtures"], swiftSettings: settings),
        .testTarget(
            name: "HTTPSerializationCompressionTests",
            dependencies: ["HTTPSerializationCompression", "HTTPSerializationCore", httpTypes],
            swiftSettings: settings
        ),
    ]
)
MANIFEST
    swift test --package-path "$package" --sanitize=thread --scratch-path "$root/.build-tsan-core/build" --skip "$skipped"
else
    # The package as the README's `swift test` builds it, every default trait on: the product
    # checks and the benchmarks use the macro, so the package does not build with it off.
    swift test --sanitize=thread --scratch-path .build-tsan --skip "$skipped"
fi
