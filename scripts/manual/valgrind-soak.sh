#!/usr/bin/env bash
# Memcheck over a few hundred classifications: fovea-soak on the forced generic
# path (FOVEA_ISA=scalar: valgrind cannot execute AVX-512), from 2 tasks. Prints
# valgrind's error and leak summaries; exits non-zero on any memcheck error or
# definite leak. "Possibly lost" blocks (pointed to only from inside, as
# long-lived runtime caches often are) are printed, not failed.
# Usage: scripts/manual/valgrind-soak.sh [TOTAL (default 200)]
#
# valgrind 3.19 (Debian 12) cannot read the DWARF 5 that Swift's clang writes, so
# it runs a stripped copy: reports then name functions by symbol, not by line.
set -euo pipefail
cd "$(dirname "$0")/../.."
total=${1:-200}
swift build -c release --product fovea-soak > /dev/null
bin=$(swift build -c release --show-bin-path)
stripped=$(mktemp -d)
cp "$bin/fovea-soak" "$stripped/fovea-soak"
strip --strip-debug "$stripped/fovea-soak"
# The ImageNet labels resource sits beside the executable.
cp -r "$bin"/*.resources "$stripped/" 2>/dev/null || true
status=0
FOVEA_ISA=scalar OMP_NUM_THREADS=1 valgrind --tool=memcheck --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite \
  --error-exitcode=1 --log-file="$stripped/valgrind.txt" \
  "$stripped/fovea-soak" --total "$total" --tasks 2 || status=$?
grep -E "ERROR SUMMARY|definitely lost|indirectly lost|possibly lost|still reachable" "$stripped/valgrind.txt"
rm -rf "$stripped"
exit $status
