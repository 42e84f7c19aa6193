#!/usr/bin/env bash
# Builds the DocC documentation of every library module into one combined archive, and fails
# on any documentation warning (broken links, unknown symbols, bad markup) or any public
# declaration without a doc comment of its own, or when the list of the public API
# (API/PublicAPI.md) no longer matches the code.
#
#   bash Scripts/docs.sh                  # archive in .build-docs/HTTPSerialization.doccarchive
#   bash Scripts/docs.sh --preview        # the same, served locally by `preview-documentation`
#
# It is the DocC plugin's usual command on the package as it is: the package's default traits
# are all on, so the async-http-client bridge, both server adapters and the macro are
# documented and checked like the rest, in the build the tests use.
set -euo pipefail
cd "$(dirname "$0")/.."

source Scripts/library-modules.sh
target_flags=()
for target in "${library_modules[@]}"; do target_flags+=(--target "$target"); done

if [ "${1:-}" = "--preview" ]; then
    exec swift package --disable-sandbox preview-documentation \
        --enable-experimental-combined-documentation "${target_flags[@]}"
fi

output=.build-docs/HTTPSerialization.doccarchive
mkdir -p .build-docs
# Symbol graphs of this run only: SwiftPM clears just the modules it extracts again, and the
# checks below read every graph they find.
rm -rf .build/*/extracted-symbols
swift package --allow-writing-to-directory .build-docs \
    generate-documentation --enable-experimental-combined-documentation "${target_flags[@]}" \
    --warnings-as-errors --output-path "$output"
echo "docs: $output"
# Every public declaration carries its own doc comment.
python3 Scripts/doc-coverage.py .build
# The list of the public API (API/PublicAPI.md) still matches the code: Linux's list, as some
# declarations differ by platform.
if [ "$(uname -s)" = Linux ]; then python3 Scripts/api-surface.py; fi
