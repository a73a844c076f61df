#!/usr/bin/env bash
# Runs `swift package diagnose-api-breaking-changes` on the `Fovea` product against
# the checked-in baseline, so a source-breaking change to `import Fovea` fails CI
# unless api/breakage-allowlist.txt lists it (and CHANGELOG.md says so: breaking
# changes need a major version after 1.0).
#
# The baseline is api/baseline/<revision>/Fovea.json, the API digester's dump of
# the revision named in api/baseline-revision; with it on disk SwiftPM builds only
# the current package (incremental after `swift build`), never the baseline (the
# revision must be in the clone's history: a shallow clone fails with a clear error).
# At a release: set api/baseline-revision to the release commit, regenerate with
#   swift package diagnose-api-breaking-changes REV --products Fovea --baseline-dir api/baseline --regenerate-baseline
# and empty the allowlist.
# Prints one "ok"/"FAIL" line; exits non-zero on a breaking change or an error.
set -uo pipefail
cd "$(dirname "$0")/../.."
revision=$(tr -d '[:space:]' < api/baseline-revision)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
if ! git cat-file -e "$revision^{commit}" 2> /dev/null; then
  echo "FAIL: the baseline revision $revision (api/baseline-revision) is not in this clone's history (a shallow clone?)"
  exit 1
fi
if swift package diagnose-api-breaking-changes "$revision" --products Fovea --baseline-dir api/baseline \
     --breakage-allowlist-path api/breakage-allowlist.txt > "$out" 2>&1; then
  echo "ok: no API break of the Fovea product against ${revision:0:10} beyond api/breakage-allowlist.txt ($(grep -c . api/breakage-allowlist.txt) allowed)"
else
  echo "FAIL: API breaks of the Fovea product against ${revision:0:10} (api/baseline-revision) not in api/breakage-allowlist.txt:"
  grep -E "API breakage|error" "$out" | head -40
  exit 1
fi
