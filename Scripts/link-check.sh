#!/usr/bin/env bash
# What an app on the Foundation-free layers links: builds one small app per product
# (HTTPSerializationCore, HTTPSerializationCodable, and the async-http-client bridge with its
# trait) against this checkout, in its own scratch folder, and fails when `ldd` shows
# libFoundation, FoundationNetworking, FoundationXML, ICU, libcurl, libxml2, libpng or libjpeg,
# or when the app does not print what it should; also when the app, which turns every trait
# off (`traits: []`), resolves any package but swift-http-types.
#   Scripts/link-check.sh            the core and the Codable layer (about 30 s from cold), then
#                                    their static release sizes beside a FoundationEssentials
#                                    baseline; fails when the core adds over 2.5 MB stripped
#   Scripts/link-check.sh PRODUCT…   only those (HTTPSerializationAsyncHTTPClient: about 5 min)
#   Scripts/link-check.sh --bridge   the bridge only, as the package's `bridge-link-check`
#                                    built in the repository's own .build (seconds, not the
#                                    five minutes async-http-client takes from cold)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# Only when swift is not found: a changed PATH makes SwiftPM rebuild the whole .build tree.
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"
forbidden='lib(Foundation|FoundationNetworking|FoundationXML|_FoundationICU|icu[a-z0-9]*|curl|xml2|png16|jpeg)\.so'

# Fails when `binary` does not print `expected` or links a forbidden library.
check() {
    local product="$1" binary="$2" expected="$3" printed libraries linked
    printed="$("$binary")"
    libraries="$(ldd "$binary" | grep -c '=>' || true)"
    linked="$(ldd "$binary" | grep -oE "$forbidden" | sort -u | tr '\n' ' ' || true)"
    echo "link-check: $product: $libraries shared libraries; prints $printed"
    if [ "$printed" != "$expected" ]; then
        echo "link-check: $product printed '$printed', expected '$expected'" >&2
        return 1
    fi
    if [ -n "$linked" ]; then
        echo "link-check: $product links $linked" >&2
        return 1
    fi
}

if [ "${1:-}" = "--bridge" ]; then
    # Built as CI builds the tree (`swift run --build-tests`): a `--product` build would plan
    # it anew and recompile the package's modules, and the tests would then recompile them again.
    if ! built="$(cd "$root" && swift run --build-tests bridge-link-check 2>&1)"; then
        echo "$built" | tail -20 >&2
        exit 1
    fi
    check HTTPSerializationAsyncHTTPClient "$(cd "$root" && swift build --show-bin-path)/bridge-link-check" 'http://127.0.0.1/x?a%5Bb%5D=1'
    exit
fi
products=("$@")
[ "${#products[@]}" -gt 0 ] || products=(HTTPSerializationCore HTTPSerializationCodable)
app="$root/.build-link-check/app"
rm -rf "$app/Sources" "$app/Package.resolved"
mkdir -p "$app/Sources"

# One executable target per product, each importing that product only.
targets=""
for product in "${products[@]}"; do
    mkdir -p "$app/Sources/$product-app"
    case "$product" in
    HTTPSerializationCodable)
        # Encodes a model through the Codable layer's own encoder and reads it back.
        cat > "$app/Sources/$product-app/main.swift" <<'SWIFT'
import HTTPSerializationCodable
struct Item: Codable { var name: String; var tags: [String] }
let body = try JSONBodyEncoder().encode(Item(name: "bang", tags: ["a"]))
let item = try JSONBodyDecoder().decode(Item.self, from: body)
print(queryString(from: try ParameterValue(encoding: item)))
SWIFT
        expected='name=bang&tags%5B%5D=a' ;;
    HTTPSerializationAsyncHTTPClient)
        # Serializes a request on the core and hands it to async-http-client (nothing is sent).
        cat > "$app/Sources/$product-app/main.swift" <<'SWIFT'
import AsyncHTTPClient
import HTTPSerializationAsyncHTTPClient
import HTTPSerializationCore
let serialized = try HTTPRequestSerializer(headers: HTTPHeaderFields())
    .httpRequest(method: "GET", urlString: "http://127.0.0.1/x", parameters: ["a": ["b": 1]])
print(try HTTPClientRequest(serialized).url)
SWIFT
        expected='http://127.0.0.1/x?a%5Bb%5D=1'
        bridge=1 ;;
    *)
        cat > "$app/Sources/$product-app/main.swift" <<SWIFT
import $product
print(queryString(from: ["a": ["b": 1]]))
SWIFT
        expected='a%5Bb%5D=1' ;;
    esac
    extra=""
    [ "$product" = HTTPSerializationAsyncHTTPClient ] && extra=", .product(name: \"HTTPSerializationCore\", package: \"$(basename "$root")\"), .product(name: \"AsyncHTTPClient\", package: \"async-http-client\")"
    targets+="    .executableTarget(name: \"$product-app\", dependencies: [.product(name: \"$product\", package: \"$(basename "$root")\")$extra]),"$'\n'
    echo "$product $expected" >> "$app/expected.txt.new"
done
mv "$app/expected.txt.new" "$app/expected.txt"
# What the package costs in a binary is what it adds to a FoundationEssentials app that
# does nothing else: the baseline is built beside the products' apps, the same way.
mkdir -p "$app/Sources/baseline-app"
cat > "$app/Sources/baseline-app/main.swift" <<'SWIFT'
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
print(Data("a=b".utf8).count)
SWIFT
targets+="    .executableTarget(name: \"baseline-app\"),"$'\n'
dependencies=".package(path: \"$root\", traits: [])"
if [ -n "${bridge:-}" ]; then
    dependencies=".package(path: \"$root\", traits: [\"AsyncHTTPClient\"]), .package(url: \"https://github.com/swift-server/async-http-client\", from: \"1.37.0\")"
fi
cat > "$app/Package.swift" <<MANIFEST
// swift-tools-version: 6.2
import PackageDescription
let package = Package(
  name: "LinkCheck",
  dependencies: [$dependencies],
  targets: [
$targets  ]
)
MANIFEST

(cd "$app" && swift build 2>&1 | grep -E "error|warning: |Build" | tail -5)
bin="$(cd "$app" && swift build --show-bin-path)"
# An app with every trait off resolves swift-http-types and nothing else: no server, client or
# swift-syntax package, and none of those the tests, the tool or the benchmarks use (SwiftPM
# 6.2 and later leave out a package that only a disabled trait's targets use).
resolved="$(grep -o '"identity" : "[^"]*"' "$app/Package.resolved" 2>/dev/null | cut -d'"' -f4 | tr '\n' ' ' || true)"
if [ -z "${bridge:-}" ] && [ "$resolved" != "swift-http-types " ]; then
    echo "link-check: an app with every trait off resolved ${resolved:-nothing}, not swift-http-types alone" >&2
    exit 1
fi
echo "link-check: the app resolves ${resolved:-nothing}"
failed=0
while read -r product expected; do
    check "$product" "$bin/$product-app" "$expected" || failed=1
done < "$app/expected.txt"
[ "$failed" = 0 ] || exit 1
[ -n "${bridge:-}" ] && exit 0

# Sizes: each app as `swift build -c release --static-swift-stdlib` makes it, whole and
# stripped, and what it adds to the baseline. The core may add at most 2.5 MB stripped.
# (FoundationEssentials' archive warns at link time that it uses mktemp: not ours.)
(cd "$app" && swift build -c release --static-swift-stdlib 2>&1 | grep -E "error|warning: |Build" | grep -v mktemp | tail -5)
release="$(cd "$app" && swift build -c release --static-swift-stdlib --show-bin-path)"
sizes() { # prints "whole stripped" in bytes
    strip -o "$app/stripped" "$1"
    echo "$(stat -c %s "$1") $(stat -c %s "$app/stripped")"
}
mb() { awk -v bytes="$1" 'BEGIN { printf "%.1f MB", bytes / 1000000 }'; }
read -r base_whole base_stripped < <(sizes "$release/baseline-app")
echo "link-check: size: FoundationEssentials baseline $(mb "$base_whole") ($(mb "$base_stripped") stripped)"
limit="${CORE_SIZE_LIMIT:-2500000}"
while read -r product expected; do
    read -r whole stripped < <(sizes "$release/$product-app")
    added=$((whole - base_whole)) added_stripped=$((stripped - base_stripped))
    echo "link-check: size: $product $(mb "$whole") ($(mb "$stripped") stripped), adds $(mb "$added") ($(mb "$added_stripped") stripped)"
    if [ "$product" = HTTPSerializationCore ] && [ "$added_stripped" -gt "$limit" ]; then
        echo "link-check: HTTPSerializationCore adds $(mb "$added_stripped") stripped to a FoundationEssentials app; the bound is $(mb "$limit")" >&2
        failed=1
    fi
done < "$app/expected.txt"
exit "$failed"
