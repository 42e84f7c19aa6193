"""The public declarations this repository writes, read from the symbol graphs `Scripts/docs.sh`
extracts: shared by `Scripts/doc-coverage.py` and `Scripts/api-surface.py`, so both count the
same declarations.

Skipped: extension blocks and compiler-synthesized members (no source of their own) and
members inherited from other packages' protocols (declared outside `Sources/`).
"""
import glob
import json
import os
import sys

ROOT = os.path.realpath(os.path.join(os.path.dirname(__file__), ".."))
SOURCES = os.path.join(ROOT, "Sources") + os.sep


def public_symbols(graphs, tool):
    """Yields (module, symbol, source path) once per public declaration, or exits when `graphs`
    holds no symbol graph."""
    files = sorted(glob.glob(os.path.join(graphs, "*", "extracted-symbols", "*", "*", "*.symbols.json")))
    if not files:
        sys.exit(f"{tool}: no symbol graphs under {graphs}; run Scripts/docs.sh first")
    seen = set()
    for path in files:
        graph = json.load(open(path))
        module = graph["module"]["name"]
        for symbol in graph["symbols"]:
            precise = symbol["identifier"]["precise"]
            if symbol.get("accessLevel") not in ("public", "open") or precise in seen:
                continue
            if symbol["kind"]["identifier"] == "swift.extension" or "::SYNTHESIZED::" in precise:
                continue
            source = symbol.get("location", {}).get("uri", "").removeprefix("file://")
            if not os.path.realpath(source).startswith(SOURCES):
                continue
            seen.add(precise)
            yield module, symbol, source
