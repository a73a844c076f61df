#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run). Each `step` below is one check:
# it runs a command, counts what passed and failed in the command's own output,
# and times it. The script ends with a table of the steps and one line,
# `N passed, M failed`, and exits non-zero if anything failed.
#
# Steps to choose (docs/testing.md says what each step runs, where and why):
#   FOVEA_TEST_SERVER=0   skips fovea-serve's tests (scripts/ci/serve-test.sh --debug)
#   FOVEA_TEST_FUZZ=SECS  each fuzz target for SECS seconds under ASan (default 30; 0 skips)
set -uo pipefail
cd "$(dirname "$0")/../.."
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT

# The tests read the shared models, photos and reference outputs from ../shared/models
# (never copied into the repository). Without them most tests fail one by one; say so once.
if [ ! -f ../shared/models/squeezenet1.1.onnx ]; then
  echo "error: the shared test data is missing: $(cd .. && pwd)/shared/models/squeezenet1.1.onnx."
  echo "Clone the repository beside shared/ (the tests read ../shared/models)."
  echo "0 passed, 1 failed"
  exit 1
fi

# --- Counters: each reads a step's output and prints "TOTAL FAILED". ---------

# XCTest prints "Executed N tests, with [K tests skipped and] M failures" per suite
# and a grand total per bundle: the line with the largest N is the "All tests" one
# (lines may come out of order). Skipped tests count as passed.
xctest_counts() {
  grep -E "Executed [0-9]+ tests?, with " "$1" |
    sed -E 's/.*Executed ([0-9]+) tests?, with (([0-9]+) tests? skipped and )?([0-9]+) failures?.*/\1 \4/' |
    sort -n -k1,1 | tail -1
}

# XCTest, then Swift Testing's "Test run with N tests ... [with K issues]".
swift_test_counts() {
  local xc_total=0 xc_failed=0 st_total=0 st_failed=0 line
  read -r xc_total xc_failed <<< "$(xctest_counts "$1")"
  line=$(grep -E "Test run with [0-9]+ tests?" "$1" | tail -1)
  if [ -n "$line" ]; then
    st_total=$(echo "$line" | sed -E 's/.*Test run with ([0-9]+) tests?.*/\1/')
    echo "$line" | grep -q "failed" && st_failed=$(echo "$line" | sed -E 's/.*with ([0-9]+) issues?.*/\1/')
  fi
  echo "$(( ${xc_total:-0} + st_total )) $(( ${xc_failed:-0} + st_failed ))"
}

# Under ThreadSanitizer a race report is a failure even when every assertion passed.
tsan_counts() {
  local total failed
  read -r total failed <<< "$(xctest_counts "$1")"
  grep -q "WARNING: ThreadSanitizer" "$1" && [ "${failed:-0}" -eq 0 ] && failed=1
  echo "${total:-0} ${failed:-0}"
}

# ctest: "P% tests passed, F tests failed out of N".
ctest_counts() {
  grep -E "tests passed, [0-9]+ tests failed out of [0-9]+" "$1" | tail -1 |
    sed -E 's/.*passed, ([0-9]+) tests failed out of ([0-9]+).*/\2 \1/'
}

# Scripts that end with "N passed, M failed".
summary_line_counts() {
  grep -E "^[0-9]+ passed, [0-9]+ failed" "$1" | tail -1 |
    sed -E 's/^([0-9]+) passed, ([0-9]+) failed.*/\1 \2/' | awk '{print $1 + $2, $2}'
}

# Scripts that print one "ok: ..." or "FAIL: ..." line per check.
ok_fail_counts() {
  echo "$(grep -cE "^(ok|FAIL):" "$1") $(grep -cE "^FAIL:" "$1")"
}

# A step that is one check: its exit status says it all.
single_check_counts() { echo "1 0"; }

# --- The step runner. --------------------------------------------------------

passed=0
failed=0
table=()

# step NAME COUNTER COMMAND [ARGS...]
step() {
  local name=$1 counter=$2
  shift 2
  echo "== $name"
  local start=$SECONDS total bad status
  "$@" 2>&1 | tee "$log/$name.txt"
  status=${PIPESTATUS[0]}
  read -r total bad <<< "$($counter "$log/$name.txt")"
  total=${total:-0} bad=${bad:-0}
  # A non-zero exit with no failed test counted (a build error, a crash, a
  # sanitizer report) is one failure; so is a step that ran nothing.
  if [ "$status" -ne 0 ] && [ "$bad" -eq 0 ]; then bad=1; fi
  if [ "$total" -eq 0 ]; then bad=1; fi
  [ "$total" -ge "$bad" ] || total=$bad
  passed=$(( passed + total - bad ))
  failed=$(( failed + bad ))
  table+=("$(printf '%-26s %5d passed %4d failed %6d s' "$name" $(( total - bad )) "$bad" $(( SECONDS - start )))")
}

# --- What the steps run. -----------------------------------------------------

# The whole Swift suite runs once, in release: a debug run took 7 of CI's minutes
# on a 2-core Zen 3 (every resampler, decoder and reference loop at -Onone) and
# its build 3.5 more, where the release run takes about one. Nothing is lost:
# a release build keeps Swift's overflow, bounds and exclusivity checks, and
# Fovea's sources use no `assert` (Swift or C) that -O would remove; the debug
# configuration is still compiled and run, by the thread sanitizer step.
# MobileNetV2 and ResNet-50 (ArchModelTests: every backend against the reference
# and onnxruntime) are written in the background while the suite builds and runs
# (scripts/ci/arch-models.sh: numpy, onnx and onnxruntime from PyPI, see
# prepare_downloads below), then ArchModelTests run on their own; without the
# models they skip themselves: here that is a failure. Allocation counts
# (ArenaModelTests' steady state) mean something only in an optimized build, as here.
swift_tests() {
  swift test -c release --skip ArchModelTests
  local tests=$?
  echo "== ArchModelTests (once scripts/ci/arch-models.sh has written the models)"
  wait_for_downloads
  local models=0
  [ -f .build-arch-models/resnet50/ort_output.npy ] || { echo "error: scripts/ci/arch-models.sh wrote no models"; models=1; }
  swift test -c release --skip-build --filter ArchModelTests
  local architectures=$?
  [ "$tests" -eq 0 ] && [ "$models" -eq 0 ] && [ "$architectures" -eq 0 ]
}
# Its two runs' counts, added.
swift_tests_counts() {
  local first second t1 f1 t2 f2
  first=$(mktemp) second=$(mktemp)
  sed '/^== ArchModelTests/,$d' "$1" > "$first"
  sed -n '/^== ArchModelTests/,$p' "$1" > "$second"
  read -r t1 f1 <<< "$(swift_test_counts "$first")"
  read -r t2 f2 <<< "$(swift_test_counts "$second")"
  rm -f "$first" "$second"
  echo "$(( ${t1:-0} + ${t2:-0} )) $(( ${f1:-0} + ${f2:-0} ))"
}

# The documentation: every relative link and every repository path written as code in
# README.md, docs/ and Benchmarks/ resolves,
# and every `fovea` command in a ```sh block parses against the CLI's --help, with
# the release `fovea` the swift test step built (built here if it is missing).
docs_check() {
  [ -x .build/release/fovea ] || swift build -c release --product fovea > /dev/null 2>&1 || return 1
  scripts/ci/check-docs.sh --fovea .build/release/fovea --paths
}

# fovea train's exports and solver against the reference tools: what
# FoveaTrainingTests wrote into .build-training (during `swift test`) is checked
# by onnxruntime, scikit-learn and coremltools.
training_checks() {
  .build-python/bin/python -c "import sklearn, coremltools" 2>/dev/null ||
    .build-python/bin/pip install -q --disable-pip-version-check scikit-learn==1.9.1 coremltools==9.0 || return 1
  .build-python/bin/python scripts/ci/training-check.py .build-training
}

# Small ONNX graphs of every operator form and exporter pattern (issue 19's list),
# on every backend against onnxruntime, with the release `fovea` the swift test step built.
operator_check() {
  [ -x .build/release/fovea ] || swift build -c release --product fovea > /dev/null 2>&1 || return 1
  .build-python/bin/python scripts/ci/onnx-op-check.py --fovea .build/release/fovea
}

# kernel_ctest BUILD_DIR [CMAKE_ARGS...]: the C kernels as a standalone CMake
# project, then ctest. The configure and build logs are printed only on failure.
kernel_ctest() {
  local dir=$1
  shift
  { cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" > "$log/$dir.txt" 2>&1 &&
    cmake --build "$dir" >> "$log/$dir.txt" 2>&1; } || { cat "$log/$dir.txt"; return 1; }
  ctest --test-dir "$dir" --output-on-failure --parallel "$(nproc)"
}

# The same with AddressSanitizer and UndefinedBehaviorSanitizer: any report fails
# its test (halt_on_error).
kernel_ctest_sanitized() {
  export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1
  kernel_ctest build-cmake-asan -DFOVEA_KERNELS_SANITIZE=ON
}

# What the later steps download is fetched in the background while the Swift
# suite builds (minutes of network time, not CPU time): the architecture models'
# Python environment and the models, Ray for "large collections", Chromium,
# tritonclient and Selenium for "fovea-serve". Those steps wait for it first;
# each still installs whatever is missing itself.
prepare_downloads() {
  local status=0
  scripts/ci/arch-models.sh 2>&1 | tail -3
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  scripts/ci/collections-test.sh --prepare || status=1
  if [ "${FOVEA_TEST_SERVER:-1}" != 0 ]; then scripts/ci/serve-test.sh --prepare || status=1; fi
  return $status
}
# (Steps run in a subshell of a pipeline, where `wait` cannot see the background
# job: it says it is done with a file holding its exit status.)
wait_for_downloads() {
  while [ ! -f "$log/downloads.status" ]; do sleep 2; done
  [ "$(cat "$log/downloads.status")" = 0 ] ||
    { echo "note: fetching in the background failed; the steps install what is missing:"; tail -5 "$log/downloads.txt"; }
}

# --- The steps. --------------------------------------------------------------

{ prepare_downloads > "$log/downloads.txt" 2>&1; echo $? > "$log/downloads.part"; mv "$log/downloads.part" "$log/downloads.status"; } &

step "swift test" swift_tests_counts swift_tests

# The library's documentation (DocC catalog + symbols) with warnings as errors,
# from a debug build of the library (its symbol graph); the API checks below
# use that build too.
step "documentation" single_check_counts scripts/ci/docs.sh

# The Fovea product's API against the checked-in baseline (api/): a breaking change
# not in api/breakage-allowlist.txt fails. Builds nothing new after the documentation step.
step "API breaking changes" ok_fail_counts scripts/ci/api-breaking-changes.sh

# The concurrency tests again under ThreadSanitizer (a separate build, only those
# classes). The Swift package's C kernels use no OpenMP (which TSan cannot see
# into): their pthread pool (Kernels/src/runtime/thread-pool.c) is instrumented
# like the rest, so TSan also checks its hand-overs under concurrent Swift runs.
step "thread sanitizer" tsan_counts swift test --scratch-path .build-tsan --sanitize=thread \
  --filter "ClassificationConcurrencyTests|RequestSemanticsTests|FrameClassifierTests|WorkerPoolTests|BackendPlanningTests|MemoryPlannerTests.testSixteenConcurrentRunsMatchSequentialOnes|DynamicBatcherTests"

step "docs links and commands" ok_fail_counts docs_check

step "training checks" summary_line_counts training_checks

step "ONNX operators vs onnxruntime" summary_line_counts operator_check

# `fovea classify` as a worker for large collections: path lists, JSON Lines,
# --resume after kill -9 in a loop, --shard, Ray Data with two workers (one
# killed midway) and the Kubernetes Indexed Job's schema and commands, on a
# small photo set, with the release `fovea` the swift test step built (about two
# minutes; Spark and the full 2,000 photos: scripts/manual/collections-engines.sh).
wait_for_downloads
step "large collections" summary_line_counts scripts/ci/collections-test.sh

step "C kernels" ctest_counts kernel_ctest build-cmake

# The Swift suite under ASan/UBSan is scripts/manual/sanitizers.sh, outside CI's time
# budget (docs/testing.md, "Outside CI").
step "C kernels, ASan + UBSan" ctest_counts kernel_ctest_sanitized

# The same C kernels cross-built for ARM64 and run under qemu-aarch64-static: the
# NEON kernels against the references (scripts/ci/aarch64-kernels.sh).
step "C kernels, aarch64 (qemu)" ctest_counts scripts/ci/aarch64-kernels.sh

# Fovea as a versioned dependency (a package depending on it `from:` a tag) builds
# and runs the README's Swift example, which must be the example's source, word for word.
step "versioned dependency" ok_fail_counts scripts/ci/versioned-consumer.sh

# Every parser under libFuzzer + ASan, 30 seconds each (FOVEA_TEST_FUZZ=SECONDS;
# 0 skips it), the targets side by side, one per core. Any crash, hang or
# out-of-memory input fails the step; its input is in .build-fuzz/artifacts.
fuzz_seconds=${FOVEA_TEST_FUZZ:-30}
if [ "$fuzz_seconds" != 0 ]; then
  step "fuzzing" ok_fail_counts scripts/ci/fuzz.sh "$fuzz_seconds"
fi

# fovea-serve (the Server/ package, its own build): Swift tests, then tritonclient
# over HTTP and gRPC, load, and the page in headless Chromium against a running
# server on loopback. A debug build: its first build (Hummingbird, gRPC, two
# BoringSSLs, Fovea again) takes half as long as a release one, which
# `scripts/ci/serve-test.sh` alone runs. FOVEA_TEST_SERVER=0 skips it.
if [ "${FOVEA_TEST_SERVER:-1}" != 0 ]; then
  step "fovea-serve" summary_line_counts scripts/ci/serve-test.sh --debug
fi

echo
printf '%s\n' "${table[@]}"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
