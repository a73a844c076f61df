#!/usr/bin/env bash
# Installs the Debian packages Fovea needs to build and test (Swift itself is
# expected at /opt/swift or on PATH). Safe to run again.
set -euo pipefail
packages=(
  pkg-config
  libturbojpeg0-dev   # JPEG decoding
  libpng-dev          # PNG decoding
  libheif-dev         # HEIC/HEIF and AVIF decoding (libheif; brings libde265 for HEVC, dav1d and aom for AV1)
  libwebp-dev         # WebP decoding (libwebp, libwebpdemux)
  liblcms2-dev        # colour matching of embedded profiles to sRGB (Little CMS 2)
  zlib1g-dev          # a PNG's iCCP profile (zlib)
  libheif-examples webp libjpeg-turbo-progs libavif-bin  # scripts/gen/test-photos.py: heif-enc, heif-convert, cwebp, img2webp, dwebp, cjpeg, avifenc
  libfftw3-dev        # image registration: FFTW's single-precision FFT (fftw3f)
  libzbar-dev         # barcode detection (zbar)
  libopenblas-dev     # the blas backend (OpenBLAS's cblas_sgemm)
  liblbfgs-dev        # FoveaTraining: libLBFGS, the optimizer of `fovea train`'s logistic-regression head
  libomp-19-dev       # OpenMP for the CMake kernels under clang 21 (Benchmarks/scripts/measure-conv-algorithms.sh; Debian's libomp-dev is LLVM 14: too old)
  cmake ninja-build   # the standalone C kernel build and its ctest tests
  gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static  # the C kernels cross-built for ARM64, tested under qemu (scripts/ci/aarch64-kernels.sh)
  libonnx-testdata    # the ONNX backend conformance tests (/usr/share/libonnx-testdata)
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
echo "dependencies ok"
