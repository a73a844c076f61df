#!/usr/bin/env python3
"""Writes the symbol graph of the types `import Fovea` re-exports, as part of module Fovea.

Usage: scripts/ci/reexported-symbol-graph.py SYMBOL_GRAPH_DIR OUTPUT_FILE

Sources/Fovea/Exports.swift re-exports single types from the modules Fovea is built
from (`@_exported import struct FoveaCore.Tensor`). The compiler's symbol graph of
Fovea leaves them out, so DocC would give `Tensor`, `FoveaError`, `PixelBuffer`, ...
no page. This copies each such type, its members and their relationships from its own
module's graph (SPI and non-public symbols left out) into one graph whose module is
`Fovea`; scripts/ci/docs.sh passes it to docc beside Fovea's own, so each type gets a
page under /documentation/fovea/ and can be curated in the catalog's Topics.
Links in those types' comments that name other symbols of their module are turned
into code voice: those symbols are not part of `import Fovea`.
"""
import importlib.util
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("public_api", os.path.join(HERE, "public-api.py"))
public_api = importlib.util.module_from_spec(spec)
spec.loader.exec_module(public_api)


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    directory, output = sys.argv[1], sys.argv[2]
    fovea = json.load(open(os.path.join(directory, "Fovea.symbols.json"), encoding="utf-8"))
    symbols, relationships = [], []
    for module, names in sorted(public_api.reexports().items()):
        graph = json.load(open(os.path.join(directory, f"{module}.symbols.json"), encoding="utf-8"))
        kept = [s for s in graph.get("symbols", [])
                if not s.get("spi") and s.get("accessLevel") in ("public", "open") and s["pathComponents"][0] in names]
        ids = {s["identifier"]["precise"] for s in kept}
        symbols += kept
        relationships += [r for r in graph.get("relationships", []) if r["source"] in ids
                          and (r["target"] in ids or r["kind"] in ("conformsTo", "inheritsFrom"))]
    # Links resolve against Fovea's pages: a link to a symbol of the type itself stays,
    # any other becomes code voice (``Graph`` -> `Graph`).
    documented = {"/".join(s["pathComponents"]) for s in symbols} | {s["pathComponents"][0] for s in symbols}
    documented |= {s["pathComponents"][0] for s in fovea.get("symbols", [])}
    for symbol in symbols:
        for line in (symbol.get("docComment") or {}).get("lines", []):
            line["text"] = re.sub(r"``([^`]+)``", lambda m: m.group(0) if m.group(1).split("/")[0].split("(")[0] in documented
                                  else f"`{m.group(1)}`", line["text"])
        # The location would point DocC at another module's sources; the page does not need it.
        symbol.pop("location", None)
    graph = {"metadata": fovea["metadata"], "module": fovea["module"], "symbols": symbols, "relationships": relationships}
    with open(output, "w", encoding="utf-8") as out:
        json.dump(graph, out)
    print(f"ok: {len(symbols)} symbols of the re-exported types in {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
