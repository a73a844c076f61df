#!/usr/bin/env bash
# The zoo check (not in CI): torchvision's classifiers with random weights,
# exported at opsets 13 and 17, in Fovea and onnxruntime. Arguments go to
# scripts/manual/zoo-check.py (--models, --opsets, --doc docs/zoo.md, ...).
#
#   scripts/manual/zoo-check.sh --doc docs/zoo.md
#
# Its venv (.build-torch, not committed) is made on first use: PyTorch's CPU-only
# wheel index if reachable, else PyPI (there torch comes with its CUDA libraries:
# 5.6 GB and about 10 minutes here). The models and outputs go to .build-zoo.
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=.build-torch
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import torch, torchvision, onnx, onnxruntime" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check --index-url https://download.pytorch.org/whl/cpu torch torchvision \
    || "$venv/bin/pip" install -q --disable-pip-version-check torch torchvision
  "$venv/bin/pip" install -q --disable-pip-version-check onnx onnxruntime
fi
[ -x .build/release/fovea ] || swift build -c release --product fovea
exec "$venv/bin/python" scripts/manual/zoo-check.py "$@"
