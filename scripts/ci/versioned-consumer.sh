#!/usr/bin/env bash
# Builds Examples/VersionedConsumer, a package that depends on Fovea by a git URL
# and `from:` a version, as users do, and runs the README's Swift example, the
# concurrent example and the folder example from it (their own code compiled with
# -warnings-as-errors); counts the warnings from Fovea's sources in that build (none allowed),
# and checks that it builds nothing of FoveaFrames (FFTW, zbar).
#
# The commit under test is cloned into .build-versioned/fovea and tagged there with
# the newest version of CHANGELOG.md, so the check is of this code, not of an older
# tag. Checks that nothing the `Fovea` product builds has an unsafe flag (in the
# manifest and in the consumer's actual compiler commands). With
# FOVEA_VERSIONED_CONFIG=release it also prints the consumer's SqueezeNet latency
# next to the root build's (.build/release/fovea bench), at 1 and 2 threads.
# Prints one "ok"/"FAIL" line per check; exits non-zero if any failed.
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
models=${FOVEA_SHARED_MODELS:-$root/../shared/models}
out=$root/.build-versioned
example=Examples/VersionedConsumer
# Debug by default: CI only needs it to build and run (a release build of the
# whole library again would cost CI minutes). Release for speed comparisons:
# FOVEA_VERSIONED_CONFIG=release, then .build-versioned/build/release/BenchSqueezeNet.
config=${FOVEA_VERSIONED_CONFIG:-debug}
failed=0

# 1. The README's example and the consumer's source are the same text.
readme_example=$(sed -n '/^Then classify a photo/,/^```sh/p' README.md | sed -n '/^```swift/,/^```$/p' | sed '1d;$d')
if [ "$readme_example" == "$(cat $example/Sources/ClassifyPhoto/main.swift)" ]; then
  echo "ok: the README's Swift example is $example/Sources/ClassifyPhoto/main.swift"
else
  echo "FAIL: the README's Swift example differs from $example/Sources/ClassifyPhoto/main.swift:"
  diff <(echo "$readme_example") $example/Sources/ClassifyPhoto/main.swift
  failed=1
fi

# 2. A versioned dependency resolves, builds (no unsafe-flags refusal) and classifies.
version=$(grep -m1 -E '^## [0-9]+\.[0-9]+\.[0-9]+' CHANGELOG.md | sed -E 's/^## ([0-9.]+).*/\1/')
rm -rf "$out/fovea"
mkdir -p "$out"
git clone -q "$root" "$out/fovea" && git -C "$out/fovea" tag -f "$version" > /dev/null
# 2a. The manifest: no target the `Fovea` or `FoveaTools` product depends on (directly or not) has unsafeFlags.
if swift package --package-path "$out/fovea" --scratch-path "$out/manifest" dump-package > "$out/manifest.json" 2> "$out/manifest.err" &&
   unsafe=$(python3 - "$out/manifest.json" 2> "$out/manifest-checked.txt" <<'PY'
import json, sys
manifest = json.load(open(sys.argv[1]))
targets = {t["name"]: t for t in manifest["targets"]}
# Fovea, and FoveaTools (BenchSqueezeNet's LatencyBenchmark) that the consumer uses too.
products = [p for p in manifest["products"] if p["name"] in ("Fovea", "FoveaTools")]
seen, todo = set(), [target for product in products for target in product["targets"]]
while todo:
    name = todo.pop()
    if name in seen or name not in targets:  # products of other packages are not ours to check
        continue
    seen.add(name)
    for dependency in targets[name].get("dependencies", []):
        for kind in ("byName", "target"):
            if kind in dependency:
                todo.append(dependency[kind][0])
for name in sorted(seen):
    for setting in targets[name].get("settings", []):
        if "unsafeFlags" in setting["kind"]:
            print(f"{name}: {setting['kind']['unsafeFlags']['_0']}")
print(f"checked {len(seen)} targets", file=sys.stderr)
PY
); then
  if [ -z "$unsafe" ]; then
    echo "ok: no target of the Fovea and FoveaTools products has unsafeFlags ($(cat "$out/manifest-checked.txt"))"
  else
    echo "FAIL: targets of the Fovea and FoveaTools products with unsafeFlags:"; echo "$unsafe"
    failed=1
  fi
else
  echo "FAIL: could not read Fovea's manifest:"; tail -5 "$out/manifest.err"
  failed=1
fi

build_log=$out/build.txt
# -v: the log holds every compiler command, checked for ISA and OpenMP flags below.
if FOVEA_URL="file://$out/fovea" swift build -v -c "$config" --package-path $example --scratch-path "$out/build" > "$build_log" 2>&1; then
  # 2b. What the build ran: no CPU-target or OpenMP flag in any compiler command.
  flags=$(grep -oE -- '(-target-cpu [a-z0-9_-]+|-fopenmp[=a-z]*|-march=[a-z0-9_-]+|-mavx[0-9a-z]*|-mfma)' "$build_log" | sort | uniq -c)
  if [ -z "$flags" ]; then
    echo "ok: the consumer's build ran no compiler command with -target-cpu, -fopenmp, -march or -mavx"
  else
    echo "FAIL: the consumer's build used unsafe flags:"; echo "$flags"
    failed=1
  fi
  # 2c. No warning from Fovea's own sources in a dependent's build (the examples'
  # own code compiles with -warnings-as-errors). Fovea's checkout is under build/checkouts/.
  warnings=$(grep -E '/checkouts/[^/]+/.*: warning:' "$build_log" | sort -u)
  if [ -z "$warnings" ]; then
    echo "ok: 0 warnings from Fovea's sources in the consumer's build"
  else
    echo "FAIL: $(echo "$warnings" | wc -l) warning(s) from Fovea's sources in the consumer's build:"; echo "$warnings" | head -20
    failed=1
  fi
  # 2d. Classifying needs no FFTW or zbar: those are the FoveaFrames product's, which the consumer does not use.
  frames=$(grep -oiE 'CFFTW|CZBar|-lfftw3f|-lzbar|FoveaFrames' "$build_log" | sort | uniq -c)
  if [ -z "$frames" ]; then
    echo "ok: the consumer's build compiled and linked nothing of FoveaFrames, FFTW or zbar"
  else
    echo "FAIL: the consumer's build used FoveaFrames, FFTW or zbar (the Fovea product must not need them):"; echo "$frames"
    failed=1
  fi
  run_dir=$(mktemp -d)
  ln -s "$models/squeezenet1.1.onnx" "$run_dir/squeezenet1.1.onnx"
  ln -s "$models/photos/red_panda.jpg" "$run_dir/red_panda.jpg"
  bin=$(FOVEA_URL="file://$out/fovea" swift build -c "$config" --package-path $example --scratch-path "$out/build" --show-bin-path)
  output=$(cd "$run_dir" && "$bin/ClassifyPhoto" 2>&1)
  rm -rf "$run_dir"
  if echo "$output" | head -1 | grep -q "^lesser panda"; then
    echo "ok: Fovea $version as a versioned dependency builds and the README example prints: $(echo "$output" | head -1)"
  else
    echo "FAIL: the README example from the versioned build printed:"; echo "$output"
    failed=1
  fi
  # 2e. The concurrent example (one task per photo) and the folder example (a folder in one call).
  photos=("$models"/photos/*.jpg "$models"/photos/*.png)
  concurrent=$("$bin/ClassifyConcurrently" "$models/squeezenet1.1.onnx" "${photos[@]}" 2>&1)
  if [ "$(echo "$concurrent" | grep -c ': ')" -eq "${#photos[@]}" ] && echo "$concurrent" | grep -q "^red_panda.jpg: lesser panda"; then
    echo "ok: the concurrent example classifies ${#photos[@]} photos from ${#photos[@]} tasks (red_panda.jpg: lesser panda)"
  else
    echo "FAIL: the concurrent example printed:"; echo "$concurrent"
    failed=1
  fi
  folder=$("$bin/ClassifyFolder" "$models/squeezenet1.1.onnx" "$models/photos" 2>&1)
  images=$(find "$models/photos" -type f ! -name '.*' | grep -ciE '\.(jpe?g|png|heic|heif|avif|webp|ppm|pgm)$')
  if [ "$(echo "$folder" | grep -c ': ')" -eq "$images" ] && echo "$folder" | grep -q "red_panda.jpg: lesser panda"; then
    echo "ok: the folder example classifies the $images images of $models/photos in one call"
  else
    echo "FAIL: the folder example printed:"; echo "$folder"
    failed=1
  fi
  # 3. Speed: the versioned build's SqueezeNet latency next to the root build's, alternating.
  if [ "$config" == release ]; then
    root_fovea=$root/.build/release/fovea
    runs=${FOVEA_VERSIONED_RUNS:-100}
    echo "SqueezeNet median latency, ms ($runs runs; load average $(cut -d' ' -f1-3 /proc/loadavg)):"
    for threads in 1 2; do
      consumer_ms="" root_ms=""
      for round in 1 2 3; do
        consumer_ms+=" $("$bin/BenchSqueezeNet" "$models/squeezenet1.1.onnx" $threads $runs | sed -E 's/^median_ms ([0-9.]+).*/\1/')"
        if [ -x "$root_fovea" ]; then
          root_ms+=" $("$root_fovea" bench --model "$models/squeezenet1.1.onnx" --threads $threads --runs $runs --json |
                       python3 -c 'import json, sys; print(round(json.load(sys.stdin)["median_ms"], 3))')"
        fi
      done
      echo "  $threads thread(s): versioned consumer:$consumer_ms | root build:${root_ms:- (no .build/release/fovea)}"
    done
  else
    echo "note: latency not measured in a $config build (FOVEA_VERSIONED_CONFIG=release measures it)"
  fi
else
  echo "FAIL: the versioned consumer did not build:"; tail -20 "$build_log"
  failed=1
fi
exit $failed
