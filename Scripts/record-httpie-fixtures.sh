#!/usr/bin/env bash
# Records what HTTPie would send for each case in Tests/HTTPSerializationTests/Fixtures/HTTPie/cases.json,
# with `http --offline --ignore-stdin ARGS`, into NAME.http beside it. The fixture test compares
# `httpser --offline` with these recordings. CI does not run this (it needs HTTPie):
#
#   pip install httpie==3.2.4 && bash Scripts/record-httpie-fixtures.sh
#
# `{inputs}` in an argument stands for the fixtures' inputs folder; HTTPie's random multipart
# boundaries make re-recorded multipart fixtures differ from the committed ones, which is fine.
set -euo pipefail
cd "$(dirname "$0")/.."
folder=Tests/HTTPSerializationTests/Fixtures/HTTPie
command -v http >/dev/null || { echo "record-httpie-fixtures: HTTPie is not installed (pip install httpie==3.2.4)" >&2; exit 1; }
version=$(http --version)
python3 - "$folder" "$version" <<'PY'
import json, os, subprocess, sys
folder, version = sys.argv[1], sys.argv[2]
inputs = os.path.abspath(os.path.join(folder, "inputs"))
cases = json.load(open(os.path.join(folder, "cases.json")))
for case in cases:
    args = [a.replace("{inputs}", inputs) for a in case["args"]]
    result = subprocess.run(["http", "--offline", "--ignore-stdin"] + args, capture_output=True, check=True)
    with open(os.path.join(folder, case["name"] + ".http"), "wb") as out:
        out.write(result.stdout)
with open(os.path.join(folder, "VERSION"), "w") as out:
    out.write("HTTPie " + version + "\n")
print(f"recorded {len(cases)} cases with HTTPie {version}")
PY
