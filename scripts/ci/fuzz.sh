#!/usr/bin/env bash
# Fuzzes every parser with libFuzzer under AddressSanitizer, for SECONDS each
# (default 60): the ONNX loader (bytes -> graph -> plan), the Core ML loader,
# image decoding with EXIF and colour profiles (JPEG, PNG, HEIC, AVIF, WebP, PPM), tensor files (.npy, TensorProto), and
# fovea-serve's request decoders: REST (headers, JSON, binary data extension) and
# gRPC ModelInferRequest (Server/'s fovea-serve-fuzz, built from FoveaServerProtocol
# and SwiftProtobuf only).
#   scripts/ci/fuzz.sh [SECONDS] [TARGET...]   TARGET: onnx coreml image tensor serve-rest serve-grpc
# Targets run side by side, one per core (FOVEA_FUZZ_JOBS=N to change it).
# Seeds come from ../shared/models and the ONNX conformance data; corpora grow in
# .build-fuzz/corpus/TARGET. A crash, hang or out-of-memory input is written to
# .build-fuzz/artifacts/TARGET/: minimize it (`-minimize_crash=1`), fix the bug, and
# commit the input under Tests/FuzzRegressions/TARGET/, which FuzzRegressionTests
# replays in every test run. Prints one line per target: executions, new
# artifacts, as `ok: TARGET ...` or `FAIL: TARGET ...`; exits non-zero if any
# target found one.
set -uo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(onnx coreml image tensor serve-rest serve-grpc)
models=${FOVEA_SHARED_MODELS:-$PWD/../shared/models}
conformance=/usr/share/libonnx-testdata/data
out=.build-fuzz
mkdir -p "$out"

# Release, for speed. Linked with lld: gold crashes (an internal error in its DWARF
# reader) on the instrumented objects.
echo "== building fovea-fuzz with -sanitize=fuzzer,address (release)"
swift build -c release --product fovea-fuzz --scratch-path "$out/build" \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFOVEA_FUZZ -Xswiftc -use-ld=lld > "$out/build.log" 2>&1 ||
  { tail -30 "$out/build.log"; exit 1; }
bin=$(swift build -c release --product fovea-fuzz --scratch-path "$out/build" --show-bin-path \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFOVEA_FUZZ -Xswiftc -use-ld=lld)/fovea-fuzz
# The server's decoders, only when asked for (a package of its own: its own scratch path).
serve_bin=
if printf '%s\n' "${targets[@]}" | grep -q '^serve-'; then
  echo "== building fovea-serve-fuzz (Server/) with -sanitize=fuzzer,address (release)"
  serve_flags=(-c release --package-path Server --product fovea-serve-fuzz --scratch-path "$out/serve-build"
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFOVEA_FUZZ -Xswiftc -use-ld=lld)
  swift build "${serve_flags[@]}" > "$out/serve-build.log" 2>&1 || { tail -30 "$out/serve-build.log"; exit 1; }
  serve_bin=$(swift build "${serve_flags[@]}" --show-bin-path)/fovea-serve-fuzz
fi

# Seeds: small real files of each kind (libFuzzer keeps those that add coverage).
seed() {  # seed TARGET FILE...
  local dir="$out/corpus/$1"
  shift
  mkdir -p "$dir"
  for f in "$@"; do [ -f "$f" ] && [ "$(stat -c %s "$f")" -le 8000000 ] && cp -n "$f" "$dir/" 2>/dev/null; done
  return 0
}
# A small .npy (2x3 float32, version 1.0 header padded to 64 bytes): the shared
# data has none.
npy_seed() {
  local header="{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"
  mkdir -p "$out/corpus/tensor"
  { printf '\x93NUMPY\x01\x00\x36\x00'; printf '%-53s\n' "$header"; head -c 24 /dev/zero; } > "$out/corpus/tensor/seed.npy"
}
# fuzz TARGET: seeds, then libFuzzer for $seconds; prints the target's verdict line
# and exits non-zero if it found anything.
fuzz() {
  local target=$1
  case $target in
    onnx) seed onnx "$models"/coreml/*.onnx Tests/FuzzRegressions/onnx/* $(find "$conformance/node" -name model.onnx 2>/dev/null | head -300) ;;
    coreml) seed coreml "$models"/coreml/*.mlmodel Tests/FuzzRegressions/coreml/* ;;
    image)
      # HEIC, AVIF, WebP, profiles and hostile files made from the shared photos (issue 34).
      python3 scripts/gen/test-photos.py "$out/test-photos" > /dev/null 2>&1 || echo "note: scripts/gen/test-photos.py failed; image seeds without HEIC/AVIF/WebP"
      seed image "$models"/photos/* Tests/FuzzRegressions/image/* "$out"/test-photos/*.{heic,avif,webp,png,jpg} ;;
    tensor) npy_seed; seed tensor Tests/FuzzRegressions/tensor/* $(find "$conformance/node" -name "*.pb" 2>/dev/null | head -300) ;;
    serve-*) FOVEA_FUZZ_TARGET=$target FOVEA_FUZZ_SEEDS="$out/corpus/$target" "$serve_bin"
      seed "$target" Server/Tests/FuzzRegressions/"$target"/* ;;
  esac
  local program=$bin
  [[ $target == serve-* ]] && program=$serve_bin
  mkdir -p "$out/artifacts/$target"
  local before log status runs found verdict=ok
  before=$(ls "$out/artifacts/$target" | wc -l)
  log="$out/$target.log"
  # Leaks in system libraries Fovea cannot free are listed, with reasons, in lsan-suppressions.txt.
  LSAN_OPTIONS=suppressions=$PWD/scripts/ci/lsan-suppressions.txt FOVEA_FUZZ_TARGET=$target "$program" "$out/corpus/$target" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -max_len=1048576 -detect_leaks=1 -artifact_prefix="$out/artifacts/$target/" \
    -print_final_stats=1 > "$log" 2>&1
  status=$?
  runs=$(grep -E "^stat::number_of_executed_units:" "$log" | awk '{print $2}')
  found=$(( $(ls "$out/artifacts/$target" | wc -l) - before ))
  if [ "$status" -ne 0 ] || [ "$found" -gt 0 ]; then verdict=FAIL; tail -40 "$log"; fi
  echo "$verdict: $target: ${runs:-?} executions in ${seconds} s, $found new crash/hang/oom input(s), exit $status"
  [ "$verdict" = ok ]
}

for target in "${targets[@]}"; do
  case $target in
    onnx|coreml|image|tensor|serve-rest|serve-grpc) ;;
    *) echo "unknown target $target (onnx, coreml, image, tensor, serve-rest, serve-grpc)"; exit 64 ;;
  esac
done
# Each libFuzzer process is one thread: run as many targets at once as there are
# cores (FOVEA_FUZZ_JOBS to change it), so that 4 targets × 60 s take 2 minutes on 2 cores.
jobs=${FOVEA_FUZZ_JOBS:-$(nproc)}
pids=()
for target in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  fuzz "$target" &
  pids+=($!)
done
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
exit $failed
