#!/usr/bin/env bash
# Rewrites the kernels backend's fallback table of 3x3 convolution algorithms
# (Sources/Backends/Kernels/ConvolutionAlgorithmTable+Measured.swift) from
# measurements on this machine: a thin wrapper of `fovea tune --write-fallback`
# (docs/tuning.md). Takes minutes; run it on an idle machine (nothing building).
# To tune Fovea for this machine alone, run `fovea tune --model M` instead.
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build -c release --product fovea > /dev/null
exec .build/release/fovea tune --write-fallback Sources/Backends/Kernels/ConvolutionAlgorithmTable+Measured.swift "$@"
