#!/usr/bin/env bash
# The public API against the recorded baseline (API/README.md): swift-api-digester, the tool
# behind SwiftPM's `diagnose-api-breaking-changes`, compares every library module of the build
# the tests use with its dump in API/Baseline and fails on any change that breaks code written
# against it, naming the declaration and where it is.
#   Scripts/api-check.sh           compare (after a debug build of the package)
#   Scripts/api-check.sh --record  make the current build's API the baseline; commit it with a
#                                  line in API/README.md saying why
# Why not `swift package diagnose-api-breaking-changes`: measured here, it builds the current
# side again with build parameters of its own (7 min 48 s after the tests' build), and its
# dumps of a baseline commit come out empty for this package (the checkout's module maps and
# the main build's tool-build ones define the same C modules twice, and it carries on).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"
source Scripts/library-modules.sh
digester="$(dirname "$(readlink -f "$(command -v swift)")")/swift-api-digester"
if [ ! -x "$digester" ]; then
    digester="$(command -v swift-api-digester || true)"
    [ -n "$digester" ] || { echo "api-check: no swift-api-digester beside swift or on PATH" >&2; exit 1; }
fi
bin="$(swift build --show-bin-path)"
if [ ! -f "$bin/Modules/HTTPSerializationCore.swiftmodule" ]; then
    echo "api-check: no build in $bin; run swift build first" >&2
    exit 1
fi
# What the compiler would search: the built modules, the C targets' generated module maps (not
# the tool build's copies, which define the same modules), and the dependencies' own.
search=(-I "$bin/Modules")
for folder in "$bin"/*.build; do
    case "$folder" in *-tool.build) continue ;; esac
    [ -f "$folder/module.modulemap" ] && search+=(-I "$folder")
done
while IFS= read -r map; do search+=(-I "$(dirname "$map")"); done \
    < <(find .build/checkouts -path '*/include/module.modulemap' 2>/dev/null | sort)
scratch=".build/api-check"
rm -rf "$scratch"
mkdir -p "$scratch"

if [ "${1:-}" = "--record" ]; then
    if [ -n "$(git status --porcelain -- Sources Package.swift)" ]; then
        echo "api-check: Sources or Package.swift has uncommitted changes; record a committed API" >&2
        exit 1
    fi
    rm -rf API/Baseline
    mkdir -p API/Baseline
    for module in "${library_modules[@]}"; do
        "$digester" -dump-sdk -compiler-style-diags "${search[@]}" -module "$module" -o "$scratch/$module.json"
        # The dump names this machine's paths in `tool_arguments`; the comparison does not read them.
        python3 - "$scratch/$module.json" <<'PYTHON'
import json, sys
path = sys.argv[1]
dump = json.load(open(path))
dump["ABIRoot"].pop("tool_arguments", None)
if not dump["ABIRoot"].get("children") and not path.endswith("/HTTPSerialization.json"):
    sys.exit(f"api-check: the dump of {path} is empty: the module did not load")
json.dump(dump, open(path, "w"), indent=1, sort_keys=True)
PYTHON
        gzip -9 -n -c "$scratch/$module.json" > "API/Baseline/$module.json.gz"
    done
    git rev-parse HEAD > API/Baseline/COMMIT
    echo "api-check: recorded the API of $(cat API/Baseline/COMMIT) in API/Baseline (${#library_modules[@]} modules)"
    exit 0
fi

echo "api-check: the API against the baseline of $(cat API/Baseline/COMMIT)"
failed=()
for module in "${library_modules[@]}"; do
    if [ ! -f "API/Baseline/$module.json.gz" ]; then
        echo "api-check: $module is new since the baseline; record one that holds it"
        continue
    fi
    gzip -dc "API/Baseline/$module.json.gz" > "$scratch/$module.json"
    if ! "$digester" -diagnose-sdk -compiler-style-diags -baseline-path "$scratch/$module.json" \
        "${search[@]}" -module "$module"; then
        failed+=("$module")
    fi
done
if [ "${#failed[@]}" -gt 0 ]; then
    echo "api-check: breaking changes in ${failed[*]} (above); if they are meant, say so in the CHANGELOG and record a new baseline" >&2
    exit 1
fi
echo "api-check: no breaking change in ${#library_modules[@]} modules"

# No public declaration takes or hands out a raw pointer (issue 62): bytes are lent as spans.
# An addition is no break, so the current API is dumped and walked: every type a public
# declaration names (parameters, results, payloads, aliases, generic constraints). The only
# ones allowed are the platform's own signatures: a Sequence requirement of ParameterArray and
# the InputStream overrides of RequestBodyInputStream.
for module in "${library_modules[@]}"; do
    "$digester" -dump-sdk "${search[@]}" -module "$module" -o "$scratch/$module.current.json"
done
python3 - "$scratch" "${library_modules[@]}" <<'PYTHON'
import json, re, sys
scratch, modules = sys.argv[1], sys.argv[2:]
pointer = re.compile(r"\bSwift\.(AutoreleasingUnsafeMutablePointer|Unsafe(Mutable)?(Raw)?(Buffer)?Pointer|OpaquePointer|Unmanaged)\b")
allowed = {("ParameterArray", "withContiguousStorageIfAvailable(_:)"), ("RequestBodyInputStream", "read(_:maxLength:)"),
           ("RequestBodyInputStream", "getBuffer(_:length:)")}
types = ("TypeNominal", "TypeFunc", "TypeNameAlias")
found = []
def walk(node, owner, declaration, internal, module):
    kind = node.get("kind")
    if kind not in types:
        if declaration is not None and declaration.get("declKind") in ("Struct", "Class", "Enum", "Protocol"):
            owner = declaration.get("printedName")
        declaration, internal = node, internal or node.get("isInternal", False)
        for signature in ("genericSig", "sugared_genericSig"):
            if not internal and pointer.search(node.get(signature, "")) and (owner, node.get("printedName")) not in allowed:
                found.append(f"{module}: {owner}.{node.get('printedName')} (constraint {node.get(signature)})")
    name = node.get("printedName", "")
    if kind in types and pointer.search(name):
        if not internal and (owner, declaration.get("printedName")) not in allowed:
            found.append(f"{module}: {owner}.{declaration.get('printedName')} ({name})")
        return
    for child in node.get("children", []):
        walk(child, owner, declaration, internal, module)
for module in modules:
    dump = json.load(open(f"{scratch}/{module}.current.json"))
    if not dump["ABIRoot"].get("children") and module != "HTTPSerialization":
        found.append(f"{module}: the dump is empty (the module did not load)")
    walk(dump["ABIRoot"], module, None, False, module)
for line in sorted(set(found)):
    print(f"api-check: a public declaration with a raw pointer: {line}")
sys.exit(1 if found else 0)
PYTHON
echo "api-check: no raw pointer in a public declaration"
