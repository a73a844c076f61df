#!/usr/bin/env bash
# The whole Swift test suite under AddressSanitizer + UndefinedBehaviorSanitizer,
# in its own build folder (.build-asan). Not part of CI's run: a second full debug
# build plus a suite about 2-3x slower would push CI past its 30-minute budget on
# 2 cores (README, "Tests", says what runs where). Run it before a release and
# after touching unsafe pointer code. Ends with the XCTest summary; exits non-zero
# on any failure or sanitizer report. Swift has no UBSan on Linux (its own
# arithmetic and bounds checks trap); UBSan instruments the C targets, through -Xcc.
set -uo pipefail
cd "$(dirname "$0")/../.."
log=$(mktemp)
# halt_on_error: a UBSan report stops the run instead of scrolling past.
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=0 \
  swift test --scratch-path .build-asan --sanitize=address -Xcc -fsanitize=undefined "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if grep -qE "ERROR: AddressSanitizer|runtime error:" "$log"; then status=1; fi
rm -f "$log"
exit "$status"
