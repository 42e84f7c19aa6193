#!/usr/bin/env python3
"""Fails unless every public declaration of the package's modules has its own doc comment.

Reads the symbol graphs `Scripts/docs.sh` extracted. A declaration counts as documented only
by a comment written in this repository: docs inherited from a protocol elsewhere (Swift's
`Equatable.==`, say) do not count. Extension blocks and compiler-synthesized members, which
have no source of their own, are skipped.
"""
import os
import sys

from symbol_graphs import public_symbols

graphs = sys.argv[1] if len(sys.argv) > 1 else ".build"
total, missing = 0, []
for _, symbol, source in public_symbols(graphs, "doc-coverage"):
    total += 1
    uri = symbol["location"]["uri"]
    comment = symbol.get("docComment") or {}
    own = comment.get("uri", "") == uri and any(line["text"].strip() for line in comment.get("lines", []))
    if not own:
        line = symbol["location"]["position"]["line"] + 1
        missing.append(f"{os.path.relpath(source)}:{line}: {' '.join(symbol['names']['title'].split())}")

print(f"doc-coverage: {total - len(missing)} of {total} public declarations documented")
for entry in sorted(missing):
    print("  undocumented:", entry)
sys.exit(1 if missing else 0)
