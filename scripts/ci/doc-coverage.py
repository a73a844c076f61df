#!/usr/bin/env python3
"""Lists the public declarations of Fovea's library modules that have no `///` comment.

Usage: scripts/ci/doc-coverage.py SYMBOL_GRAPH_DIR [MODULE ...]

Reads the symbol graphs `swift package dump-symbol-graph --minimum-access-level public`
wrote (MODULE.symbols.json and MODULE@OTHER.symbols.json, the latter holding MODULE's
extensions of OTHER's types) and prints one line per public or open symbol without a
doc comment, `file:line: kind name`, then a count. Exits 1 if there is any.

What counts as documented:
- a symbol with its own `///` or `/** */` comment;
- a symbol the compiler gives an inherited comment: a protocol requirement's
  implementation (`description`, `==`, `init(from:)`, `Backend.prepare(_:)`, ...) takes
  the requirement's comment when it has none, in the symbol graph as in DocC;
- compiler-synthesized symbols (memberwise `Equatable`, `Hashable`, `Codable`,
  `CaseIterable`, `RawRepresentable` members, a `@TaskLocal`'s `$projection`) are
  skipped: they have no source to comment.

Enum cases are public declarations like any other and need a comment too.
scripts/ci/docs.sh runs this over every library module, so CI fails on a gap.

It also fails when a top-level public type of `import Fovea` (Fovea's own, and each
type Sources/Fovea/Exports.swift re-exports) is not curated: named as ``Type`` in a
`## Topics` section of the DocC catalog, Sources/Fovea/Fovea.docc. DocC would still
give it a page, but in an automatic "Structures" or "Enumerations" group.
"""
import glob
import json
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
CATALOG = os.path.join(ROOT, "Sources", "Fovea", "Fovea.docc")
EXPORTS = os.path.join(ROOT, "Sources", "Fovea", "Exports.swift")
TYPE_KINDS = {"swift.struct", "swift.class", "swift.enum", "swift.protocol", "swift.typealias", "swift.actor"}

# The modules of the library products (Fovea and what it is built from,
# FoveaTraining, FoveaBatching, FoveaTools). Not the executables' (fovea,
# fovea-soak, FoveaFuzzing) or the tests' (FoveaTestSupport).
LIBRARY_MODULES = [
    "Fovea", "FoveaCore", "FoveaImage", "FoveaONNX", "FoveaCoreML", "FoveaFrames",
    "FoveaKernelsBackend", "FoveaPortableBackend", "FoveaBLASBackend", "FoveaBatching", "FoveaTraining", "FoveaTools",
]


def uncurated_types(directory):
    """Top-level public types of `import Fovea` that no `## Topics` section of the catalog names."""
    with open(os.path.join(directory, "Fovea.symbols.json")) as f:
        graph = json.load(f)
    types = {s["pathComponents"][0] for s in graph.get("symbols", [])
             if len(s["pathComponents"]) == 1 and s["kind"]["identifier"] in TYPE_KINDS
             and not s.get("spi") and s.get("accessLevel") in ("public", "open")}
    for line in open(EXPORTS, encoding="utf-8"):
        match = re.match(r"\s*@_exported\s+import\s+(struct|class|enum|protocol|typealias)\s+\w+\.(\w+)", line)
        if match:
            types.add(match.group(2))
    curated = set()
    for path in glob.glob(os.path.join(CATALOG, "**", "*.md"), recursive=True):
        topics = False
        for line in open(path, encoding="utf-8"):
            if line.startswith("## "):
                topics = line.strip() == "## Topics"
            elif topics:
                curated.update(re.findall(r"^\s*-\s*``([A-Za-z0-9_]+)``", line))
    return sorted(types - curated)


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    directory = sys.argv[1]
    modules = sys.argv[2:] or LIBRARY_MODULES
    missing = []
    total = 0
    seen = set()
    for module in modules:
        files = [os.path.join(directory, module + ".symbols.json")]
        files += sorted(glob.glob(os.path.join(directory, module + "@*.symbols.json")))
        if not os.path.exists(files[0]):
            print(f"doc-coverage: no symbol graph for {module} in {directory}", file=sys.stderr)
            return 2
        for path in files:
            with open(path) as f:
                graph = json.load(f)
            for symbol in graph.get("symbols", []):
                if symbol.get("accessLevel") not in ("public", "open"):
                    continue
                precise = symbol["identifier"]["precise"]
                if "::SYNTHESIZED::" in precise or precise in seen:
                    continue
                seen.add(precise)
                kind = symbol["kind"]["identifier"]
                if kind == "swift.extension":
                    continue
                location = symbol.get("location")
                if not location:
                    # Made by the compiler with no source to comment, such as the
                    # `$name` projection of a `@TaskLocal` property.
                    continue
                total += 1
                lines = (symbol.get("docComment") or {}).get("lines") or []
                if any(line.get("text", "").strip() for line in lines):
                    continue
                uri = location.get("uri", "")
                file = uri.replace("file://", "")
                root = os.getcwd() + "/"
                if file.startswith(root):
                    file = file[len(root):]
                line = location.get("position", {}).get("line", -1) + 1
                name = ".".join(symbol.get("pathComponents") or [symbol["names"]["title"]])
                missing.append(f"{file}:{line}: {kind.replace('swift.', '')} {name}")
    for entry in sorted(missing):
        print(entry)
    status = 0
    if missing:
        print(f"doc-coverage: {len(missing)} of {total} public symbols of "
              f"{', '.join(modules)} have no /// comment")
        status = 1
    else:
        print(f"ok: all {total} public symbols of the library modules have a /// comment")
    if "Fovea" in modules:
        uncurated = uncurated_types(directory)
        for name in uncurated:
            print(f"Sources/Fovea/Fovea.docc: public type {name} of import Fovea is under no ## Topics heading")
        if uncurated:
            print(f"doc-coverage: {len(uncurated)} public types of import Fovea are not curated in the DocC catalog's Topics")
            status = 1
        else:
            print("ok: every public type of import Fovea is curated under a DocC Topics heading")
    return status


if __name__ == "__main__":
    sys.exit(main())
