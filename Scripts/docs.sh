#!/usr/bin/env bash
# Builds the DocC documentation of every library module into one combined archive, and fails
# on any documentation warning (broken links, unknown symbols, bad markup) or any public
# declaration without a doc comment of its own.
#
#   bash Scripts/docs.sh                  # archive in .build-docs/HTTPSerialization.doccarchive
#   bash Scripts/docs.sh --preview        # the same, served locally by `preview-documentation`
#
# HTTPSERIALIZATION_DOCS=1 leaves the tests and the nested `Development/` package out of the
# manifest: SwiftPM's plugins cannot run on the package cycle they form (see Package.swift).
# Every trait is on, so the async-http-client bridge, both server adapters and the macro are
# documented and checked like the rest (they are empty without their traits).
set -euo pipefail
cd "$(dirname "$0")/.."
export HTTPSERIALIZATION_DOCS=1

targets=(HTTPSerializationCore HTTPSerializationCodable HTTPSerializationFoundation
         HTTPSerializationXML HTTPSerializationImages HTTPSerializationCompression HTTPSerializationCompound
         HTTPSerialization HTTPSerializationAsyncHTTPClient HTTPSerializationHummingbird HTTPSerializationVapor
         HTTPSerializationMacros)
target_flags=()
for target in "${targets[@]}"; do target_flags+=(--target "$target"); done

if [ "${1:-}" = "--preview" ]; then
    exec swift package --scratch-path .build-docs --enable-all-traits --disable-sandbox preview-documentation \
        --enable-experimental-combined-documentation "${target_flags[@]}"
fi

# The documentation manifest resolves other packages: Package.resolved is put back after.
source Scripts/keep-resolved.sh

output=.build-docs/HTTPSerialization.doccarchive
swift package --scratch-path .build-docs --enable-all-traits --allow-writing-to-directory .build-docs \
    generate-documentation --enable-experimental-combined-documentation "${target_flags[@]}" \
    --warnings-as-errors --output-path "$output"
echo "docs: $output"
# Every public declaration carries its own doc comment.
python3 Scripts/doc-coverage.py .build-docs
