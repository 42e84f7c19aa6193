#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/Targets (with AddressSanitizer) and runs each,
# starting from the committed seeds in Fuzz/Corpus/<target>.
#   Scripts/fuzz.sh [SECONDS]   each target for SECONDS (default 30)
#   Scripts/fuzz.sh ci          each target for a fixed number of seeded executions (about
#                               7 s each here), so CI runs the same inputs every time
#   Scripts/fuzz.sh MODE NAME…  only the named targets (xml, responses, …) in either mode
# A failure exits non-zero and leaves the reproducer in .build-fuzz/.
set -euo pipefail
seconds="${1:-30}"
shift || true
only=("$@")
declare -A ci_runs=([escaping]=17500 [multipart]=35000 [parameters]=37500 [query]=22500 [responses]=1250 [xml]=150000 [plist]=75000 [json]=125000 [ndjson]=75000 [sse]=75000 [gzip]=25000 [multipartparser]=50000 [formdecoder]=75000 [textreader]=40000)
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/.build-fuzz"
mkdir -p "$build"
export PATH="/opt/swift/usr/bin:$PATH"
sanitize="-sanitize=fuzzer,address"
# Swift's own crash reporter would run inside ASan; libFuzzer reports crashes itself.
export SWIFT_BACKTRACE=enable=no
# FoundationXML's XMLDocument never frees its documents on Linux (a reference cycle between
# the document and its nodes); that leak is theirs and is suppressed, nothing else is.
export LSAN_OPTIONS="suppressions=$root/Fuzz/lsan.supp:print_suppressions=0"

# The library's modules (and swift-http-types) once, instrumented, by SwiftPM in its own
# scratch folder; each target then links against their object files.
echo "fuzz: building the HTTPSerialization modules"
swift build -c release --target HTTPSerialization --scratch-path "$build/spm" \
    -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address 2>&1 | grep -E "error|Compiling|Build" | tail -3
products="$(swift build -c release --scratch-path "$build/spm" --show-bin-path)"
# The objects of the current sources only: a moved file leaves its old object behind.
objects=()
for module in "$root"/Sources/HTTPSerialization*/; do
    name="$(basename "$module")"
    # The trait-gated integrations (the async-http-client bridge, the framework layers, the
    # macro and its plugin) are not part of the HTTPSerialization target.
    case "$name" in HTTPSerializationAsyncHTTPClient|HTTPSerializationHummingbird|HTTPSerializationVapor|HTTPSerializationMacros|HTTPSerializationMacroPlugin) continue ;; esac
    while IFS= read -r source; do
        objects+=("$products/$name.build/$(basename "$source").o")
    done < <(find "$module" -name '*.swift')
done
mapfile -t -O "${#objects[@]}" objects < <(find "$products" \( -path '*/HTTPTypes.build/*.o' -o -path '*/CImageCodecs.build/*.o' -o -path '*/CZlib.build/*.o' \) | sort)
[ "${#objects[@]}" -gt 0 ] || { echo "fuzz: no object files under $products" >&2; exit 1; }

status=0
for target in "$root"/Fuzz/Targets/*.swift; do
    name="$(basename "$target" .swift)"
    [ "$name" = "FuzzBytes" ] && continue
    if [ "${#only[@]}" -gt 0 ] && [[ ! " ${only[*]} " =~ " $name " ]]; then continue; fi
    echo "fuzz: building $name"
    swiftc -parse-as-library -O $sanitize -I "$products/Modules" \
        -Xcc -fmodule-map-file="$products/CImageCodecs.build/module.modulemap" -Xcc -I"$root/Sources/CImageCodecs/include" \
        -Xcc -fmodule-map-file="$products/CZlib.build/module.modulemap" -Xcc -I"$root/Sources/CZlib/include" \
        "$target" "$root/Fuzz/Targets/FuzzBytes.swift" "${objects[@]}" \
        -lpng16 -ljpeg -lz -o "$build/$name" 2> >(grep -v "warning:" >&2 || true)
    corpus="$build/corpus/$name"
    mkdir -p "$corpus" "$root/Fuzz/Corpus/$name"
    if [ "$seconds" = "ci" ]; then
        limit="-runs=${ci_runs[$name]} -max_total_time=120"
        echo "fuzz: running $name for ${ci_runs[$name]} seeded executions"
    else
        limit="-max_total_time=$seconds"
        echo "fuzz: running $name for ${seconds}s"
    fi
    # A fresh corpus each run keeps the inputs the same from run to run.
    rm -rf "$corpus" && mkdir -p "$corpus"
    if ! (cd "$build" && "./$name" $limit -seed=1 -rss_limit_mb=4096 -timeout=10 \
            -print_final_stats=1 "$corpus" "$root/Fuzz/Corpus/$name" > "$build/$name.log" 2>&1); then
        echo "fuzz: $name FAILED; see $build/$name.log" >&2
        tail -40 "$build/$name.log" >&2
        status=1
    fi
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$build/$name.log" | sed "s/^/fuzz: $name /" || true
done
exit "$status"
