#!/usr/bin/env bash
# `@GeneratedJSONCoding`'s plugin and its expansion tests built against the lowest swift-syntax the
# package allows (Package.swift: "600.0.1"..<"604.0.0"), so that no API from a later release
# slips in. The package's own builds resolve the newest; this one copies the plugin and its
# tests into a scratch package that pins the version.
#   Scripts/macro-low-end.sh [VERSION]   (default 600.0.1)
set -euo pipefail
cd "$(dirname "$0")/.."
version="${1:-600.0.1}"
# One scratch package per checkout, so two checkouts on one machine never share it.
scratch="${TMPDIR:-/tmp}/httpser-macro-low-end-$(pwd -P | cksum | cut -d' ' -f1)"
rm -rf "$scratch/Sources" "$scratch/Tests" "$scratch/Package.swift" "$scratch/Package.resolved"
mkdir -p "$scratch/Sources" "$scratch/Tests"
cp -R Sources/HTTPSerializationMacroPlugin "$scratch/Sources/"
cp -R Tests/HTTPSerializationMacroPluginTests "$scratch/Tests/"
cat > "$scratch/Package.swift" <<MANIFEST
// swift-tools-version:6.0
import CompilerPluginSupport
import PackageDescription

func syntax(_ names: String...) -> [Target.Dependency] {
    names.map { .product(name: \$0, package: "swift-syntax") }
}
// As the package's own settings, with the trait's define on.
let settings: [SwiftSetting] = [.swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny"), .define("Macros")]

let package = Package(
    name: "MacroLowEnd",
    dependencies: [.package(url: "https://github.com/swiftlang/swift-syntax", exact: "$version")],
    targets: [
        .macro(
            name: "HTTPSerializationMacroPlugin",
            dependencies: syntax("SwiftSyntax", "SwiftSyntaxMacros", "SwiftSyntaxBuilder", "SwiftDiagnostics", "SwiftCompilerPlugin"),
            swiftSettings: settings
        ),
        .testTarget(
            name: "HTTPSerializationMacroPluginTests",
            dependencies: ["HTTPSerializationMacroPlugin"]
                + syntax("SwiftSyntaxMacrosGenericTestSupport", "SwiftSyntaxMacroExpansion", "SwiftSyntax", "SwiftSyntaxMacros"),
            swiftSettings: settings
        ),
    ]
)
MANIFEST
echo "macro-low-end: the plugin and its tests on swift-syntax $version"
swift test --package-path "$scratch"
