#!/usr/bin/env bash
# The whole test suite: Swift tests (XCTest + Swift Testing), the C kernel
# tests (CMake + ctest) and fovea-serve's (scripts/serve-test.sh). Ends with one
# line: `N passed, M failed`.
set -uo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp -d)

echo "== swift test"
swift test 2>&1 | tee "$log/swift.txt"
swift_status=${PIPESTATUS[0]}

# The library's documentation (DocC catalog + symbols) with warnings as errors,
# from the debug build swift test just made.
echo "== documentation (scripts/docs.sh)"
scripts/docs.sh 2>&1 | tail -30 | tee "$log/docs.txt"
docs_status=${PIPESTATUS[0]}

# The concurrency tests again under ThreadSanitizer (a separate build, only that class).
# Built without OpenMP: LLVM's libomp is not instrumented, so TSan cannot see its
# barriers and reports every hand-over between a parallel region and the caller
# as a race. The C kernels still run (on the calling thread) under concurrent
# Swift runs; their OpenMP splits are checked by ctest and the 1-vs-2-thread tests.
echo "== swift test --sanitize=thread (concurrency)"
FOVEA_OPENMP=0 swift test --scratch-path .build-tsan --sanitize=thread --filter "ClassificationConcurrencyTests|FrameClassifierTests|WorkerPoolTests|BackendPlanningTests|MemoryPlannerTests.testSixteenConcurrentRunsMatchSequentialOnes|DynamicBatcherTests" 2>&1 | tee "$log/tsan.txt"
tsan_status=${PIPESTATUS[0]}

# Allocation counts mean something only in an optimized build: the steady-state
# test runs again in release (it skips itself in debug builds). So do the
# published architectures (MobileNetV2, ResNet-50: every backend against the
# reference and onnxruntime), too slow for a debug build; their models are
# written first (scripts/arch-models.sh: numpy, onnx and onnxruntime from PyPI).
echo "== swift test -c release (steady-state allocations, MobileNetV2 and ResNet-50)"
arch_status=0
scripts/arch-models.sh 2>&1 | tail -3 | tee "$log/arch.txt" || arch_status=1
[ -f .build-arch-models/resnet50/ort_output.npy ] || arch_status=1
swift test -c release --filter "ArenaModelTests.testSteadyStateRunAllocatesOnlyItsOutputs|ArchModelTests" 2>&1 | tee "$log/release.txt"
release_status=${PIPESTATUS[0]}
# Without the models ArchModelTests skip themselves: here that is a failure.
[ "$arch_status" -eq 0 ] || release_status=1

# fovea train's exports and solver against the reference tools: what
# FoveaTrainingTests wrote into .build-training (during `swift test`) is checked
# by onnxruntime, scikit-learn and coremltools (scripts/training-check.py).
echo "== training checks (onnxruntime, scikit-learn, coremltools)"
training_status=0
.build-python/bin/python -c "import sklearn, coremltools" 2>/dev/null \
  || .build-python/bin/pip install -q --disable-pip-version-check scikit-learn==1.9.1 coremltools==9.0 || training_status=1
.build-python/bin/python scripts/training-check.py .build-training 2> "$log/training-stderr.txt" | tee "$log/training.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || { training_status=1; cat "$log/training-stderr.txt"; }

echo "== C kernels (cmake + ctest)"
cmake_status=0
{ cmake -S . -B build-cmake -G Ninja -DCMAKE_BUILD_TYPE=Release > "$log/cmake.txt" 2>&1 &&
  cmake --build build-cmake >> "$log/cmake.txt" 2>&1; } || { cat "$log/cmake.txt"; cmake_status=1; }
ctest --test-dir build-cmake --output-on-failure 2>&1 | tee "$log/ctest.txt"
ctest_status=${PIPESTATUS[0]}

# The same C tests with AddressSanitizer and UndefinedBehaviorSanitizer (any
# report fails its test: halt_on_error). The Swift suite under ASan/UBSan is
# scripts/sanitizers.sh, outside CI's time budget (README, "Tests").
echo "== C kernels under ASan + UBSan (cmake + ctest)"
{ cmake -S . -B build-cmake-asan -G Ninja -DCMAKE_BUILD_TYPE=Release -DFOVEA_KERNELS_SANITIZE=ON > "$log/cmake-asan.txt" 2>&1 &&
  cmake --build build-cmake-asan >> "$log/cmake-asan.txt" 2>&1; } || { cat "$log/cmake-asan.txt"; cmake_status=1; }
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
  ctest --test-dir build-cmake-asan --output-on-failure 2>&1 | tee "$log/ctest-asan.txt"
ctest_asan_status=${PIPESTATUS[0]}

# Fovea as a versioned dependency (a package depending on it `from:` a tag) builds
# and runs the README's Swift example, which must be the example's source, word for word.
echo "== versioned dependency (Examples/VersionedConsumer)"
scripts/versioned-consumer.sh 2>&1 | tee "$log/versioned.txt"
versioned_status=${PIPESTATUS[0]}

# fovea-serve (the Server/ package, its own build): Swift tests, then tritonclient,
# load and the page in headless Chromium against a running server on loopback.
# It prints its own `N passed, M failed` line (scripts/serve-test.sh). Its first
# build (Hummingbird, gRPC, two BoringSSLs, Fovea again) takes about 10 minutes on
# 2 cores, past CI's 30-minute budget with the rest: it runs when FOVEA_TEST_SERVER=1
# (README, "Tests", says what runs where). The batcher's tests run above, always.
serve_status=0
sv_total=0
sv_failed=0
if [ "${FOVEA_TEST_SERVER:-0}" = 1 ]; then
  echo "== fovea-serve (scripts/serve-test.sh)"
  scripts/serve-test.sh 2>&1 | tee "$log/serve.txt"
  serve_status=${PIPESTATUS[0]}
  serve_line=$(grep -E "^[0-9]+ passed, [0-9]+ failed$" "$log/serve.txt" | tail -1)
  sv_failed=1
  if [ -n "$serve_line" ]; then
    sv_failed=$(echo "$serve_line" | cut -d' ' -f3)
    sv_total=$(( $(echo "$serve_line" | cut -d' ' -f1) + sv_failed ))
  fi
fi

# XCTest prints "Executed N tests, with [K tests skipped and] M failures" per
# suite and a grand total per bundle: take the line with the largest N, i.e.
# the "All tests" one (lines may come out of order). Skipped tests count as passed.
xctest_counts() {
  grep -E "Executed [0-9]+ tests?, with " "$1" |
    sed -E 's/.*Executed ([0-9]+) tests?, with (([0-9]+) tests? skipped and )?([0-9]+) failures?.*/\1 \4/' |
    sort -n -k1,1 | tail -1
}
read -r xc_total xc_failed <<< "$(xctest_counts "$log/swift.txt")"
st_line=$(grep -E "Test run with [0-9]+ tests?" "$log/swift.txt" | tail -1)
st_total=$(echo "$st_line" | sed -E 's/.*Test run with ([0-9]+) tests?.*/\1/')
st_failed=0
echo "$st_line" | grep -q "failed" && st_failed=$(echo "$st_line" | sed -E 's/.*with ([0-9]+) issues?.*/\1/')
read -r ts_total ts_failed <<< "$(xctest_counts "$log/tsan.txt")"
# A data race report makes the run exit non-zero even when every assertion passed.
if [ "$tsan_status" -ne 0 ] && [ "${ts_failed:-0}" -eq 0 ]; then ts_failed=1; fi
if grep -q "WARNING: ThreadSanitizer" "$log/tsan.txt" && [ "${ts_failed:-0}" -eq 0 ]; then ts_failed=1; fi
read -r rl_total rl_failed <<< "$(xctest_counts "$log/release.txt")"
# The filter must have found its test.
if [ "${rl_total:-0}" -lt 1 ]; then rl_total=1; rl_failed=1; fi
tr_line=$(grep -E "^[0-9]+ passed, [0-9]+ failed" "$log/training.txt" | tail -1)
tr_passed=$(echo "$tr_line" | sed -E 's/^([0-9]+) passed.*/\1/')
tr_failed=$(echo "$tr_line" | sed -E 's/.*passed, ([0-9]+) failed.*/\1/')
if [ -z "$tr_line" ]; then tr_passed=0; tr_failed=1; fi
ct_line=$(grep -E "tests passed, [0-9]+ tests failed out of [0-9]+" "$log/ctest.txt" | tail -1)
ct_total=$(echo "$ct_line" | sed -E 's/.*out of ([0-9]+).*/\1/')
ct_failed=$(echo "$ct_line" | sed -E 's/.*passed, ([0-9]+) tests failed.*/\1/')
vc_total=$(grep -cE "^(ok|FAIL):" "$log/versioned.txt")
vc_failed=$(grep -cE "^FAIL:" "$log/versioned.txt")
ca_line=$(grep -E "tests passed, [0-9]+ tests failed out of [0-9]+" "$log/ctest-asan.txt" | tail -1)
ca_total=$(echo "$ca_line" | sed -E 's/.*out of ([0-9]+).*/\1/')
ca_failed=$(echo "$ca_line" | sed -E 's/.*passed, ([0-9]+) tests failed.*/\1/')

total=$(( ${xc_total:-0} + ${st_total:-0} + ${ts_total:-0} + ${rl_total:-0} + ${ct_total:-0} + ${ca_total:-0} + ${vc_total:-0} + ${tr_passed:-0} + ${tr_failed:-0} + 1 + sv_total ))
failed=$(( ${xc_failed:-0} + ${st_failed:-0} + ${ts_failed:-0} + ${rl_failed:-0} + ${ct_failed:-0} + ${ca_failed:-0} + ${vc_failed:-0} + ${tr_failed:-0} + (docs_status != 0) + sv_failed ))
# A build failure or a crash counts as a failure even if no line was printed.
for s in $swift_status $tsan_status $release_status $cmake_status $ctest_status $ctest_asan_status $versioned_status $training_status $docs_status $serve_status; do
  [ "$s" -eq 0 ] || [ "$failed" -gt 0 ] || failed=1
done
rm -rf "$log"
echo "$(( total - failed )) passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$swift_status" -eq 0 ] && [ "$tsan_status" -eq 0 ] && [ "$release_status" -eq 0 ] && [ "$training_status" -eq 0 ] && [ "$cmake_status" -eq 0 ] && [ "$ctest_status" -eq 0 ] && [ "$ctest_asan_status" -eq 0 ] && [ "$versioned_status" -eq 0 ] && [ "$docs_status" -eq 0 ] && [ "$serve_status" -eq 0 ]
