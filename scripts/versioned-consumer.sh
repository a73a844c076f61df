#!/usr/bin/env bash
# Builds Examples/VersionedConsumer, a package that depends on Fovea by a git URL
# and `from:` a version, as users do, and runs the README's Swift example from it.
#
# The commit under test is cloned into .build-versioned/fovea and tagged there with
# the newest version of CHANGELOG.md, so the check is of this code, not of an older
# tag. Prints one "ok"/"FAIL" line per check; exits non-zero if any failed.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
models=${FOVEA_SHARED_MODELS:-$root/../shared/models}
out=$root/.build-versioned
example=Examples/VersionedConsumer
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
build_log=$out/build.txt
if FOVEA_URL="file://$out/fovea" swift build -c release --package-path $example --scratch-path "$out/build" > "$build_log" 2>&1; then
  run_dir=$(mktemp -d)
  ln -s "$models/squeezenet1.1.onnx" "$run_dir/squeezenet1.1.onnx"
  ln -s "$models/photos/red_panda.jpg" "$run_dir/red_panda.jpg"
  bin=$(FOVEA_URL="file://$out/fovea" swift build -c release --package-path $example --scratch-path "$out/build" --show-bin-path)
  output=$(cd "$run_dir" && "$bin/ClassifyPhoto" 2>&1)
  rm -rf "$run_dir"
  if echo "$output" | head -1 | grep -q "^lesser panda"; then
    echo "ok: Fovea $version as a versioned dependency builds and the README example prints: $(echo "$output" | head -1)"
  else
    echo "FAIL: the README example from the versioned build printed:"; echo "$output"
    failed=1
  fi
else
  echo "FAIL: the versioned consumer did not build:"; tail -20 "$build_log"
  failed=1
fi
exit $failed
