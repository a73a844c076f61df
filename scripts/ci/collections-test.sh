#!/usr/bin/env bash
# Large collections (docs/large-collections.md): `fovea classify` as a streaming,
# resumable, shardable worker (--paths-from, --jsonl, --output --resume, --shard,
# kill -9 in a loop), driven by Ray Data with two workers (one killed midway),
# and the Kubernetes Indexed Job (schema check, then its command by hand per index).
#
#   scripts/ci/collections-test.sh            (what scripts/ci/test.sh runs)
#   scripts/ci/collections-test.sh --prepare  (only makes the virtual environment)
#
# CI keeps this to about two minutes, so it uses a small photo set
# (FOVEA_COLLECTION_PHOTOS, default 120) and runs Ray, the engine that installs
# and starts faster here (docs/large-collections.md, "Tests"); Spark and the full
# 2,000 photos are scripts/manual/collections-engines.sh. Uses the release
# `fovea` when scripts/ci/test.sh's swift test step built it (FOVEA=PATH to choose),
# and a virtual environment of its own, .build-collections (Ray, Pillow,
# kubernetes-validate, PyYAML from PyPI), made on first use.
# Ends with `N passed, M failed`.
set -uo pipefail
cd "$(dirname "$0")/../.."
venv=.build-collections
if ! "$venv/bin/python" -c "import ray.data, PIL, yaml, kubernetes_validate" 2> /dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "ray[data]==2.60.0" Pillow==13.0.0 PyYAML==6.0.4 kubernetes-validate==1.37.0 ||
    { echo "error: cannot install Ray, Pillow, PyYAML and kubernetes-validate from PyPI"; exit 1; }
fi
[ "${1:-}" = --prepare ] && exit 0
photos=${FOVEA_COLLECTION_PHOTOS:-120}
fovea=${FOVEA:-}
if [ -z "$fovea" ]; then
  if [ -x .build/release/fovea ]; then
    fovea=.build/release/fovea
  else
    swift build --product fovea > /dev/null || { echo "error: cannot build fovea"; exit 1; }
    fovea=.build/debug/fovea
  fi
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$venv/bin/python" scripts/ci/make-photo-set.py "$work/set" "$photos" || exit 1
"$venv/bin/python" scripts/ci/collections_check.py --fovea "$fovea" --set "$work/set" --work "$work/run" \
  --kill-after 0.5 --batch-size 16 cli ray indexed-job
