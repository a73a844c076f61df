#!/usr/bin/env bash
# Cross-builds the C kernels (Kernels/) for 64-bit ARM Linux and runs their
# whole ctest suite under qemu-aarch64-static: the NEON kernels against the
# naive references, the scalar ones, dispatch with FOVEA_ISA forced.
#
#   scripts/ci/aarch64-kernels.sh [BUILD_DIR]     (default: build-aarch64)
#
# Needs gcc-aarch64-linux-gnu, libc6-dev-arm64-cross and qemu-user-static
# (scripts/ci/install-deps.sh). The toolchain file cmake/aarch64-linux-gnu.cmake
# makes ctest run every test program through qemu. Under emulation every float
# operation runs in software, so the slowest tests run 1/8 of their random
# shapes and skip speed comparisons (FOVEA_TEST_EMULATED,
# Kernels/tests/support/test_support.h); everything else is the native suite. The Swift package is not built here: there is no
# Swift SDK for aarch64 Linux on this machine.
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:-build-aarch64}
for tool in aarch64-linux-gnu-gcc qemu-aarch64-static; do
  command -v "$tool" > /dev/null || { echo "error: $tool not found (scripts/ci/install-deps.sh installs it)" >&2; exit 1; }
done
log=$(mktemp)
trap 'rm -f "$log"' EXIT
{ cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake > "$log" 2>&1 &&
  cmake --build "$dir" >> "$log" 2>&1; } || { cat "$log"; exit 1; }
FOVEA_TEST_EMULATED=1 ctest --test-dir "$dir" --output-on-failure --parallel "$(nproc)" --timeout 600
