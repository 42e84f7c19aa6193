#!/usr/bin/env python3
"""Fails unless every public declaration of the package's modules has its own doc comment.

Reads the symbol graphs `Scripts/docs.sh` extracted. A declaration counts as documented only
by a comment written in this repository: docs inherited from a protocol elsewhere (Swift's
`Equatable.==`, say) do not count. Extension blocks and compiler-synthesized members, which
have no source of their own, are skipped.
"""
import glob
import json
import os
import sys

graphs = sys.argv[1] if len(sys.argv) > 1 else ".build"
root = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", "Sources"))
files = glob.glob(os.path.join(graphs, "*", "extracted-symbols", "*", "*", "*.symbols.json"))
if not files:
    sys.exit(f"doc-coverage: no symbol graphs under {graphs}; run Scripts/docs.sh first")

seen, missing = set(), []
for path in files:
    for symbol in json.load(open(path))["symbols"]:
        precise = symbol["identifier"]["precise"]
        if symbol.get("accessLevel") not in ("public", "open") or precise in seen:
            continue
        if symbol["kind"]["identifier"] == "swift.extension" or "::SYNTHESIZED::" in precise:
            continue
        uri = symbol.get("location", {}).get("uri", "")
        source = uri.removeprefix("file://")
        if not os.path.realpath(source).startswith(root + os.sep):
            continue
        seen.add(precise)
        comment = symbol.get("docComment") or {}
        own = comment.get("uri", "") == uri and any(line["text"].strip() for line in comment.get("lines", []))
        if not own:
            line = symbol["location"]["position"]["line"] + 1
            missing.append(f"{os.path.relpath(source)}:{line}: {' '.join(symbol['names']['title'].split())}")

print(f"doc-coverage: {len(seen) - len(missing)} of {len(seen)} public declarations documented")
for entry in sorted(missing):
    print("  undocumented:", entry)
sys.exit(1 if missing else 0)
