#!/usr/bin/env bash
# Builds the Fovea library's documentation (Sources/Fovea/Fovea.docc plus the
# symbol graphs of the Fovea module and of the types it re-exports) into
# .build-docs/Fovea.doccarchive with the
# toolchain's docc, warnings treated as errors (a broken symbol link or article
# reference fails). Uses the debug build's modules, so after `swift build` or
# `swift test` it only extracts symbols. Open the archive with
# `docc preview Sources/Fovea/Fovea.docc --additional-symbol-graph-dir .build-docs/symbols`.
#
# Then, from the same symbol graphs, fails on any public declaration of the
# library modules without a `///` comment and on any public type of `import Fovea`
# outside the catalog's Topics (scripts/ci/doc-coverage.py lists them),
# checks what `import Fovea` exposes (scripts/ci/api-boundary.sh), and compares
# its public symbols with the checked-in list (scripts/ci/public-api.py).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=.build-docs
rm -rf "$out"
mkdir -p "$out/symbols"
# Without a debug build of the tests (CI runs them in release), SwiftPM cannot emit the
# graphs of its synthesized test modules and exits non-zero; the library's graphs are
# written all the same. Any other error fails.
if ! swift package dump-symbol-graph --minimum-access-level public > "$out/dump.txt" 2>&1 &&
   grep "error:" "$out/dump.txt" | grep -qv "Failed to emit symbol graph for 'FoveaPackage\(Discovered\)\?Tests'"; then
  tail -20 "$out/dump.txt"
  exit 1
fi
graphs=$(sed -n 's/.*Files written to \(.*\)$/\1/p' "$out/dump.txt" | tail -1)
[ -n "$graphs" ] || graphs=$(swift build --show-bin-path)/../symbolgraph
cp "$graphs"/Fovea.symbols.json "$graphs"/Fovea@*.symbols.json "$out/symbols/" 2>/dev/null || cp "$graphs"/Fovea.symbols.json "$out/symbols/"
# The types Fovea re-exports (Tensor, FoveaError, PixelBuffer, ...) get pages too.
scripts/ci/reexported-symbol-graph.py "$graphs" "$out/symbols/Fovea.reexported.symbols.json"
docc convert Sources/Fovea/Fovea.docc --additional-symbol-graph-dir "$out/symbols" \
  --fallback-display-name Fovea --fallback-bundle-identifier org.fovea.Fovea \
  --output-dir "$out/Fovea.doccarchive" --warnings-as-errors
echo "ok: documentation built in $out/Fovea.doccarchive"
status=0
scripts/ci/doc-coverage.py "$graphs" || status=1
scripts/ci/api-boundary.sh || status=1
# The public API of `import Fovea` against the checked-in list (api/Fovea.public-symbols.txt).
scripts/ci/public-api.py "$graphs" || status=1
exit $status
