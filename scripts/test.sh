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

# The concurrency tests again under ThreadSanitizer (a separate build, only that class).
# Built without OpenMP: LLVM's libomp is not instrumented, so TSan cannot see its
# barriers and reports every hand-over between a parallel region and the caller
# as a race. The C kernels still run (on the calling thread) under concurrent
# Swift runs; their OpenMP splits are checked by ctest and the 1-vs-2-thread tests.
echo "== swift test --sanitize=thread (concurrency)"
FOVEA_OPENMP=0 swift test --scratch-path .build-tsan --sanitize=thread --filter "ClassificationConcurrencyTests|WorkerPoolTests|BackendPlanningTests|MemoryPlannerTests.testSixteenConcurrentRunsMatchSequentialOnes|DynamicBatcherTests" 2>&1 | tee "$log/tsan.txt"
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

echo "== C kernels (cmake + ctest)"
cmake_status=0
{ cmake -S . -B build-cmake -G Ninja -DCMAKE_BUILD_TYPE=Release > "$log/cmake.txt" 2>&1 &&
  cmake --build build-cmake >> "$log/cmake.txt" 2>&1; } || { cat "$log/cmake.txt"; cmake_status=1; }
ctest --test-dir build-cmake --output-on-failure 2>&1 | tee "$log/ctest.txt"
ctest_status=${PIPESTATUS[0]}

# fovea-serve (the Server/ package, its own build): Swift tests, then tritonclient,
# load and the page in headless Chromium against a running server on loopback.
# It prints its own `N passed, M failed` line (scripts/serve-test.sh).
echo "== fovea-serve (scripts/serve-test.sh)"
scripts/serve-test.sh 2>&1 | tee "$log/serve.txt"
serve_status=${PIPESTATUS[0]}
serve_line=$(grep -E "^[0-9]+ passed, [0-9]+ failed$" "$log/serve.txt" | tail -1)
sv_total=0
sv_failed=1
if [ -n "$serve_line" ]; then
  sv_failed=$(echo "$serve_line" | cut -d' ' -f3)
  sv_total=$(( $(echo "$serve_line" | cut -d' ' -f1) + sv_failed ))
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
ct_line=$(grep -E "tests passed, [0-9]+ tests failed out of [0-9]+" "$log/ctest.txt" | tail -1)
ct_total=$(echo "$ct_line" | sed -E 's/.*out of ([0-9]+).*/\1/')
ct_failed=$(echo "$ct_line" | sed -E 's/.*passed, ([0-9]+) tests failed.*/\1/')

total=$(( ${xc_total:-0} + ${st_total:-0} + ${ts_total:-0} + ${rl_total:-0} + ${ct_total:-0} + sv_total ))
failed=$(( ${xc_failed:-0} + ${st_failed:-0} + ${ts_failed:-0} + ${rl_failed:-0} + ${ct_failed:-0} + sv_failed ))
# A build failure or a crash counts as a failure even if no line was printed.
for s in $swift_status $tsan_status $release_status $cmake_status $ctest_status $serve_status; do
  [ "$s" -eq 0 ] || [ "$failed" -gt 0 ] || failed=1
done
rm -rf "$log"
echo "$(( total - failed )) passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$swift_status" -eq 0 ] && [ "$tsan_status" -eq 0 ] && [ "$release_status" -eq 0 ] && [ "$cmake_status" -eq 0 ] && [ "$ctest_status" -eq 0 ] && [ "$serve_status" -eq 0 ]
