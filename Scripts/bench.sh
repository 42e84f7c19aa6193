#!/usr/bin/env bash
# The full benchmark run, with what it needs that the README's two commands do not: `wrk`
# (Debian's package) for the servers section, which loads Hummingbird and Vapor routes.
#
#   bash Scripts/bench.sh                  # everything, release build
#   bash Scripts/bench.sh --only servers   # any httpser-bench arguments pass through
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v wrk >/dev/null 2>&1; then
    echo "bench: installing wrk"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk
fi
exec swift run -c release httpser-bench "$@"
