#!/usr/bin/env bash
# Large collections by hand (docs/large-collections.md, "Tests"): the checks of
# scripts/ci/collections-test.sh on the full 2,000-photo set, with both engines:
# Apache Spark in local[2,4] and Ray with two workers, each also with one worker
# killed midway; prints the images/s of one process and of each engine.
#
#   scripts/manual/collections-engines.sh [PHOTOS]      (default 2000)
#
# Needs Java 17 or later (Debian's openjdk-17-jre-headless; on this image already)
# and two virtual environments made on first use: .build-collections (Ray,
# Pillow, ...; as CI) and .build-spark (pyspark, Pillow, PyYAML: pyspark comes
# as a 450 MB source package, several minutes to install). Uses the release
# `fovea` (built if missing: several minutes the first time).
set -uo pipefail
cd "$(dirname "$0")/../.."
photos=${1:-2000}
export PATH="/opt/swift/usr/bin:$PATH"
[ -x .build/release/fovea ] || swift build -c release --product fovea > /dev/null || { echo "error: cannot build fovea"; exit 1; }
if ! .build-collections/bin/python -c "import ray.data, PIL, yaml, kubernetes_validate" 2> /dev/null; then
  python3 -m venv .build-collections
  .build-collections/bin/pip install -q "ray[data]==2.60.0" Pillow==13.0.0 PyYAML==6.0.4 kubernetes-validate==1.37.0 || exit 1
fi
if ! .build-spark/bin/python -c "import pyspark, PIL" 2> /dev/null; then
  python3 -m venv .build-spark
  .build-spark/bin/pip install -q pyspark==4.3.0 Pillow==13.0.0 PyYAML==6.0.4 || exit 1
fi
java -version 2>&1 | head -1 | grep -q '"17\|"2[0-9]' ||
  { echo "error: Spark needs Java 17 or later: apt-get install openjdk-17-jre-headless"; exit 1; }
# Spark binds to the machine's address unless told otherwise.
export SPARK_LOCAL_IP=127.0.0.1
work=${FOVEA_COLLECTIONS_WORK:-.build-collections-run}
rm -rf "$work/run-ray" "$work/run-spark"
[ -f "$work/set/manifest.txt" ] && [ "$(grep -c . "$work/set/manifest.txt")" -eq $((photos + 1)) ] ||
  { rm -rf "$work/set"; .build-collections/bin/python scripts/ci/make-photo-set.py "$work/set" "$photos" || exit 1; }
status=0
.build-collections/bin/python scripts/ci/collections_check.py --fovea .build/release/fovea --set "$work/set" \
  --work "$work/run-ray" --kill-after 10 --batch-size 64 cli ray indexed-job || status=1
# The same reference: Spark's results are compared with the one process's.
mkdir -p "$work/run-spark" && cp "$work/run-ray/reference.jsonl" "$work/run-spark/"
.build-spark/bin/python scripts/ci/collections_check.py --fovea .build/release/fovea --set "$work/set" \
  --work "$work/run-spark" --kill-after 10 --partitions 8 spark || status=1
exit $status
