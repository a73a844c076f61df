#!/usr/bin/env python3
"""Lists what `import Fovea` exposes, one public symbol a line, from the symbol graphs.

Usage: scripts/ci/public-api.py SYMBOL_GRAPH_DIR [--update]

Reads the symbol graphs `swift package dump-symbol-graph --minimum-access-level public`
wrote: Fovea.symbols.json and Fovea@OTHER.symbols.json (Fovea's extensions of other
modules' types), and for each type Sources/Fovea/Exports.swift re-exports
(`@_exported import struct FoveaCore.Tensor`), that type and its members from its own
module's graph. SPI symbols (`@_spi(Internals)`) are left out: they are not part of
`import Fovea`. Each line is `kind path: declaration`, sorted.

Compares the list with api/Fovea.public-symbols.txt, the checked-in public API, and
exits 1 if they differ, printing the lines added and removed: a change to the public
API must change that file in the same commit (run with --update to rewrite it, then
review the diff; removed or changed lines break users and need a major version, see
CHANGELOG.md). Prints the symbol count.
"""
import glob
import json
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
CHECKED = os.path.join(ROOT, "api", "Fovea.public-symbols.txt")
EXPORTS = os.path.join(ROOT, "Sources", "Fovea", "Exports.swift")


def reexports():
    """{module: {type name}} from Exports.swift's `@_exported import kind Module.Name` lines."""
    found = {}
    for line in open(EXPORTS, encoding="utf-8"):
        match = re.match(r"\s*@_exported\s+import\s+\w+\s+(\w+)\.(\w+)", line)
        if match:
            found.setdefault(match.group(1), set()).add(match.group(2))
    return found


def lines_of(path, keep=lambda symbol: True):
    graph = json.load(open(path, encoding="utf-8"))
    lines = []
    for symbol in graph.get("symbols", []):
        if symbol.get("spi") or symbol.get("accessLevel") not in ("public", "open"):
            continue
        if not keep(symbol):
            continue
        kind = symbol["kind"]["identifier"].removeprefix("swift.")
        name = ".".join(symbol["pathComponents"])
        declaration = "".join(fragment["spelling"] for fragment in symbol.get("declarationFragments", []))
        lines.append(f"{kind} {name}: {' '.join(declaration.split())}")
    return lines


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    directory, update = sys.argv[1], "--update" in sys.argv[2:]
    own = [os.path.join(directory, "Fovea.symbols.json")] + sorted(glob.glob(os.path.join(directory, "Fovea@*.symbols.json")))
    if not os.path.exists(own[0]):
        print(f"FAIL: no {own[0]} (run swift package dump-symbol-graph --minimum-access-level public)")
        return 1
    lines = []
    for path in own:
        lines += lines_of(path)
    for module, names in sorted(reexports().items()):
        path = os.path.join(directory, f"{module}.symbols.json")
        if not os.path.exists(path):
            print(f"FAIL: no {path} for the types Exports.swift re-exports from {module}")
            return 1
        lines += lines_of(path, keep=lambda symbol: symbol["pathComponents"][0] in names)
    lines = sorted(set(lines))
    if update:
        with open(CHECKED, "w", encoding="utf-8") as out:
            out.write("\n".join(lines) + "\n")
        print(f"ok: wrote {len(lines)} public symbols to api/Fovea.public-symbols.txt")
        return 0
    checked = open(CHECKED, encoding="utf-8").read().splitlines() if os.path.exists(CHECKED) else []
    added = sorted(set(lines) - set(checked))
    removed = sorted(set(checked) - set(lines))
    if not added and not removed:
        print(f"ok: the public API of `import Fovea` is api/Fovea.public-symbols.txt ({len(lines)} symbols)")
        return 0
    print(f"FAIL: the public API of `import Fovea` differs from api/Fovea.public-symbols.txt "
          f"({len(added)} added, {len(removed)} removed or changed); if intended, run "
          f"scripts/ci/public-api.py {directory} --update and commit the list (removals break users: CHANGELOG.md)")
    for line in removed[:40]:
        print(f"  - {line}")
    for line in added[:40]:
        print(f"  + {line}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
