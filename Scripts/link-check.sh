#!/usr/bin/env bash
# What an app on the Foundation-free layers links: builds one small app per product
# (HTTPSerializationCore, HTTPSerializationCodable) against this checkout, in its own scratch
# folder, and fails when `ldd` shows libFoundation, FoundationNetworking, FoundationXML, ICU,
# libcurl, libxml2, libpng or libjpeg, or when the app does not print what it should.
#   Scripts/link-check.sh            both products
#   Scripts/link-check.sh PRODUCT…   only those
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export PATH="/opt/swift/usr/bin:$PATH"
products=("$@")
[ "${#products[@]}" -gt 0 ] || products=(HTTPSerializationCore HTTPSerializationCodable)
app="$root/.build-link-check/app"
rm -rf "$app/Sources"
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
    *)
        cat > "$app/Sources/$product-app/main.swift" <<SWIFT
import $product
print(queryString(from: ["a": ["b": 1]]))
SWIFT
        expected='a%5Bb%5D=1' ;;
    esac
    targets+="    .executableTarget(name: \"$product-app\", dependencies: [.product(name: \"$product\", package: \"$(basename "$root")\")]),"$'\n'
    echo "$product $expected" >> "$app/expected.txt.new"
done
mv "$app/expected.txt.new" "$app/expected.txt"
cat > "$app/Package.swift" <<MANIFEST
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
  name: "LinkCheck",
  dependencies: [.package(path: "$root")],
  targets: [
$targets  ]
)
MANIFEST

(cd "$app" && swift build 2>&1 | grep -E "error|warning: |Build" | tail -5)
bin="$(cd "$app" && swift build --show-bin-path)"
forbidden='lib(Foundation|FoundationNetworking|FoundationXML|_FoundationICU|icu[a-z0-9]*|curl|xml2|png16|jpeg)\.so'
failed=0
while read -r product expected; do
    binary="$bin/$product-app"
    printed="$("$binary")"
    libraries="$(ldd "$binary" | grep -c '=>' || true)"
    linked="$(ldd "$binary" | grep -oE "$forbidden" | sort -u | tr '\n' ' ' || true)"
    echo "link-check: $product: $libraries shared libraries; prints $printed"
    if [ "$printed" != "$expected" ]; then
        echo "link-check: $product printed '$printed', expected '$expected'" >&2
        failed=1
    fi
    if [ -n "$linked" ]; then
        echo "link-check: $product links $linked" >&2
        failed=1
    fi
done < "$app/expected.txt"
exit "$failed"
