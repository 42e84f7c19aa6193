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

# The core manifest resolves fewer packages: Package.resolved is put back after.
source Scripts/keep-resolved.sh

# Races TSan reports inside dependencies that are not races: see the file.
export TSAN_OPTIONS="suppressions=$root/.ci/tsan-suppressions.txt${TSAN_OPTIONS:+:$TSAN_OPTIONS}"

if [ "${1:-}" = "core" ]; then
    # Package.swift then declares only the core's and compression's test targets, and
    # neither `Development` nor swift-syntax.
    HTTPSERIALIZATION_CORE_TESTS=1 swift test --sanitize=thread --scratch-path .build-tsan-core --skip "$skipped"
else
    # Without the Macros trait: see Development/Package.swift.
    HTTPSERIALIZATION_NO_MACROS=1 swift test --sanitize=thread --scratch-path .build-tsan --skip "$skipped"
fi
