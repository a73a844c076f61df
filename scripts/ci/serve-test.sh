#!/usr/bin/env bash
# fovea-serve's tests (the Server/ package): its Swift tests, then the real
# protocol clients against a running server, all on loopback:
#   1. swift test in Server/ (builds fovea-serve too, as `swift build` makes it),
#      in release, or in debug with --debug (CI: the first build takes about half
#      as long);
#   2. Tests/Clients/test_clients.py: tritonclient HTTP + gRPC (and, with --kserve,
#      test_kserve_clients.py: the kserve SDK's v2 clients; a heavy install, not in CI);
#      tensor results are compared bit for bit with `fovea run` (built in Server/ from the same library build);
#   3. Tests/Clients/hostile_test.py: issue 38's hostile requests, one test per finding
#      (overflowing shapes, parser errors and descriptors, photo decoding and health
#      latency, JSON size and the memory budget, slow clients, SIGTERM order, logs,
#      percent-encoded names), about a minute; its measurements in .build-serve-test/hostile.md;
#   4. Tests/Clients/load_test.py: 16 clients, 2,000 requests (--debug: 96, since a
#      debug build's kernels are unoptimized), batching on and off;
#   5. Tests/Clients/page_test.py: the page in headless Chromium (skipped with --no-browser),
#      screenshot in .build-serve-test/page.png.
# Python packages go into .build-serve-venv (tritonclient, selenium; kserve with --kserve);
# --prepare installs them and Chromium, and stops there.
# Ends with one line: `N passed, M failed`.
set -uo pipefail
cd "$(dirname "$0")/../.."
export PATH="/opt/swift/usr/bin:$PATH"
kserve=0
browser=1
config=release
load_requests=2000
prepare=0
for argument in "$@"; do
  case "$argument" in
    --kserve) kserve=1 ;;
    --no-browser) browser=0 ;;
    --debug) config=debug load_requests=96 ;;
    --prepare) prepare=1 ;;
    *) echo "usage: scripts/ci/serve-test.sh [--debug] [--kserve] [--no-browser] [--prepare]" >&2; exit 2 ;;
  esac
done
out=.build-serve-test
mkdir -p "$out"
passed=0
failed=0
count() {  # adds the last `N passed, M failed` line of a log to the totals
  local line
  line=$(grep -E "^[0-9]+ passed, [0-9]+ failed$" "$1" | tail -1)
  if [ -z "$line" ]; then failed=$((failed + 1)); return; fi
  passed=$((passed + $(echo "$line" | cut -d' ' -f1)))
  failed=$((failed + $(echo "$line" | cut -d' ' -f3)))
}

# The page test's browser: Debian's Chromium and its driver, installed here rather
# than by scripts/ci/install-deps.sh, so that only this step pays for them.
if [ "$browser" = 1 ] && ! command -v chromedriver > /dev/null; then
  echo "== apt: chromium chromium-driver"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium chromium-driver > /dev/null
fi

echo "== python venv (.build-serve-venv)"
venv=.build-serve-venv
{ [ -x "$venv/bin/python" ] || python3 -m venv "$venv"; } &&
  "$venv/bin/pip" install -q --disable-pip-version-check "tritonclient[http,grpc]==2.73.0" "selenium==4.51.0" numpy ||
  { echo "pip install failed"; failed=$((failed + 1)); }
if [ "$kserve" -eq 1 ]; then
  "$venv/bin/pip" install -q --disable-pip-version-check "kserve==0.21.0" || failed=$((failed + 1))
fi

# --prepare: only Chromium and the virtual environment (scripts/ci/test.sh fetches
# them in the background while the Swift suite builds).
[ "$prepare" = 1 ] && { [ "$failed" -eq 0 ]; exit; }

echo "== swift test -c $config (Server/)"
# Testable imports off in release and on in debug: each as `swift build` makes it,
# so that the `fovea` built below reuses this build of the library.
testable=--disable-testable-imports
[ "$config" = debug ] && testable=--enable-testable-imports
(cd Server && swift test -c "$config" "$testable" 2>&1) | tee "$out/swift.txt"
swift_status=${PIPESTATUS[0]}
# XCTest's grand total ("Executed N tests, with M failures" with the largest N).
read -r xc_total xc_failed <<< "$(grep -E "Executed [0-9]+ tests?, with " "$out/swift.txt" |
  sed -E 's/.*Executed ([0-9]+) tests?, with (([0-9]+) tests? skipped and )?([0-9]+) failures?.*/\1 \4/' | sort -n -k1,1 | tail -1)"
passed=$((passed + ${xc_total:-0} - ${xc_failed:-0}))
failed=$((failed + ${xc_failed:-0}))
if [ "$swift_status" -ne 0 ] && [ "${xc_failed:-0}" -eq 0 ]; then failed=$((failed + 1)); fi

# The reference `fovea` from the same build of the Fovea library (a product of the
# root package, built here as a dependency: no second build of the library).
(cd Server && swift build -c "$config" --product fovea 2>&1 | tail -1)
serve=Server/.build/$config/fovea-serve
fovea=Server/.build/$config/fovea
if [ -x "$serve" ] && [ -x "$fovea" ]; then
  echo "== protocol clients (tritonclient HTTP + gRPC)"
  (cd Server/Tests/Clients && "../../../$venv/bin/python" test_clients.py "../../../$serve" "../../../$fovea") 2>&1 | tee "$out/clients.txt"
  count "$out/clients.txt"

  if [ "$kserve" -eq 1 ]; then
    echo "== the kserve SDK's v2 clients (REST and gRPC)"
    (cd Server/Tests/Clients && "../../../$venv/bin/python" test_kserve_clients.py "../../../$serve" "../../../$fovea") 2>&1 | tee "$out/kserve.txt"
    count "$out/kserve.txt"
  fi

  echo "== hostile requests (issue 38), loopback only"
  (cd Server/Tests/Clients && "../../../$venv/bin/python" hostile_test.py "../../../$serve" --report "../../../$out/hostile.md" --logs "../../../$out") 2>&1 | tee "$out/hostile.txt"
  count "$out/hostile.txt"

  echo "== load: 16 clients, $load_requests requests, batching on and off"
  (cd Server/Tests/Clients && "../../../$venv/bin/python" load_test.py "../../../$serve" --requests "$load_requests") 2>&1 | tee "$out/load.txt"
  count "$out/load.txt"

  if [ "$browser" -eq 1 ]; then
    echo "== the page in headless Chromium"
    (cd Server/Tests/Clients && "../../../$venv/bin/python" page_test.py "../../../$serve" "../../../$out/page.png") 2>&1 | tee "$out/page.txt"
    count "$out/page.txt"
  fi
else
  echo "missing $serve or $fovea: the build failed"
  failed=$((failed + 1))
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
