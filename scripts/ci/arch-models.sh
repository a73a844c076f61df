#!/usr/bin/env bash
# Writes the published architectures the tests and benchmarks use beyond
# SqueezeNet, with seeded random weights (speed and parity do not depend on the
# values): MobileNetV2 with BatchNormalization folded (mobilenetv2) and explicit
# (mobilenetv2_bn), and ResNet-50 v1.5 (resnet50), as ONNX opset 13, each with a
# seeded input (input.npy) and onnxruntime's output on it (ort_output.npy).
#
#   scripts/ci/arch-models.sh [DIR]     (default: .build-arch-models; nothing here is committed)
#
# The models come from ../shared/tools/models/build_arch_models.py (numpy +
# onnx + onnxruntime), run in a virtual environment of its own
# (.build-python), made on first use: about a minute of downloads from PyPI.
# Then `ArchModelTests` (release build: `swift test -c release --filter
# ArchModelTests`) compares every backend with the reference and with
# onnxruntime on them; `fovea bench --model DIR/resnet50/resnet50.onnx` and
# ../shared/tools/peers/bench_peers.py --model ... measure them.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-.build-arch-models}
builder=../shared/tools/models/build_arch_models.py
[ -f "$builder" ] || { echo "error: $builder not found (the shared tools live beside the repository)" >&2; exit 1; }
if [ -f "$out/manifest.json" ] && [ -f "$out/resnet50/ort_output.npy" ] && [ -f "$out/mobilenetv2_bn/ort_output.npy" ]; then
  echo "architecture models already in $out"
  exit 0
fi
venv=.build-python
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  # scikit-learn and coremltools: scripts/ci/training-check.py (fovea train's solver and Core ML export).
  "$venv/bin/pip" install -q --disable-pip-version-check numpy==2.4.6 onnx==1.23.2 onnxruntime==1.32.0 scikit-learn==1.9.1 coremltools==9.0 \
    || "$venv/bin/pip" install -q --disable-pip-version-check numpy onnx onnxruntime scikit-learn coremltools
fi
"$venv/bin/python" "$builder" --out "$out"
echo "architecture models in $out"
