#!/usr/bin/env bash
# What `@GeneratedJSONCoding` costs in code size: 20 seeded models (142 properties of Int,
# String, Double, Bool, optionals and arrays) compiled with -O as plain `Codable` and again with
# the macro, each with a decode and an encode call so nothing is stripped as unused; prints the
# objects' symbol bytes and, for the macro's object, the bytes of each generated member and of
# the array loops specialized for the models.
#   Scripts/macro-size.sh   (a release build of the library and the macro in .build-macro-size)
#   Scripts/macro-size.sh --products .build/release   (the modules and plugin of a release build
#                                                      of the package with its default traits)
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd -P)"
if [ "${1:-}" = "--products" ] && [ -n "${2:-}" ]; then
    products="$(cd "$2" && pwd -P)"
else
    scratch="$root/.build-macro-size"
    swift build -c release --traits Macros --target HTTPSerializationMacros --scratch-path "$scratch" 2>&1 | grep -E "error|Compiling|Build" | tail -2
    products="$(swift build -c release --traits Macros --scratch-path "$scratch" --show-bin-path)"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 - "$work" <<'MODELS'
import random, sys
random.seed(7)
types = ["Int", "String", "Double", "Bool", "String?", "[Int]", "Int?", "[String]"]
models = [[f"    var p{j}: {random.choice(types)}" for j in range(random.randint(4, 10))] for _ in range(20)]
for variant in ("plain", "macro"):
    lines = ["import Foundation", "import HTTPSerializationMacros", ""]
    for i, props in enumerate(models):
        if variant == "macro":
            lines.append("@GeneratedJSONCoding")
        lines += [f"public struct Model{i}: Codable {{", *props, "}",
                  f"public func decode{i}(_ data: Data) throws -> [Model{i}] {{ try JSONBodyDecoder().decode([Model{i}].self, from: data) }}",
                  f"public func encode{i}(_ m: [Model{i}]) throws -> Data {{ try JSONBodyEncoder().encode(m) }}"]
    open(f"{sys.argv[1]}/{variant}.swift", "w").write("\n".join(lines) + "\n")
MODELS
for variant in plain macro; do
    swiftc -O -parse-as-library -c "$work/$variant.swift" -module-name "Size$variant" -I "$products/Modules" \
        -Xcc -fmodule-map-file="$products/CZlib.build/module.modulemap" -D Macros \
        -load-plugin-executable "$products/HTTPSerializationMacroPlugin-tool#HTTPSerializationMacroPlugin" \
        -o "$work/$variant.o" 2> >(grep -v "warning:" >&2 || true)
done
nm -S "$work/plain.o" "$work/macro.o" >/dev/null
python3 - "$work" <<'REPORT'
import collections, re, subprocess, sys
def symbols(path):
    out = subprocess.run(["nm", "-S", path], capture_output=True, text=True).stdout
    names = subprocess.run(["swift", "demangle", "--simplified"], input=out, capture_output=True, text=True).stdout
    for line in names.splitlines():
        defined = re.match(r"^[0-9a-f]+ ([0-9a-f]+) \S (.*)$", line)
        if defined:
            yield int(defined.group(1), 16), defined.group(2)
plain = sum(size for size, _ in symbols(f"{sys.argv[1]}/plain.o"))
groups = collections.Counter()
total = 0
for size, name in symbols(f"{sys.argv[1]}/macro.o"):
    total += size
    for key in ("decodeArray(fromText:)", "decodeArray(from:)", "encodeArray", "_jsonTapeDocumentOrder", "_jsonTapeKeyed",
                "init(jsonText:)", "init(jsonTape:)", "encode(jsonTape:)"):
        if key in name:
            groups[key] += size
            break
print(f"macro-size: plain Codable {plain} bytes, with the macro {total}: {(total - plain) / 20:.0f} bytes a model more")
for key, size in groups.most_common():
    print(f"macro-size:   {key:28} {size / 20:7.0f} bytes a model")
REPORT
