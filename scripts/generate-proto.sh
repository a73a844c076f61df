#!/usr/bin/env bash
# Regenerates the committed Swift for one of our .proto subsets:
#   onnx    Sources/FoveaONNX/Proto/onnx-subset.proto     -> onnx-subset.pb.swift
#   coreml  Sources/FoveaCoreML/Proto/coreml-subset.proto -> coreml-subset.pb.swift
#
# Usage: scripts/generate-proto.sh onnx|coreml [SWIFT_PROTOBUF_DIR]
#
# Needs protoc (Debian: protobuf-compiler) and protoc-gen-swift of the same
# swift-protobuf version as the package dependency. The plugin is taken from,
# in order:
#   1. $PROTOC_GEN_SWIFT, if set;
#   2. SWIFT_PROTOBUF_DIR/.build/release/protoc-gen-swift, if already built there;
#   3. .build-protoc-gen-swift/release/protoc-gen-swift (a previous run of this script);
#   4. otherwise it is built (about 80 s) from SWIFT_PROTOBUF_DIR, or from the
#      swift-protobuf checkout SwiftPM made in .build*/checkouts/ (run
#      `swift package resolve` first if there is none), into .build-protoc-gen-swift/.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
case "${1:-}" in
    onnx) proto_dir="$root/Sources/FoveaONNX/Proto"; proto="onnx-subset" ;;
    coreml) proto_dir="$root/Sources/FoveaCoreML/Proto"; proto="coreml-subset" ;;
    *) echo "usage: scripts/generate-proto.sh onnx|coreml [SWIFT_PROTOBUF_DIR]" >&2; exit 2 ;;
esac
shift
scratch="$root/.build-protoc-gen-swift"

command -v protoc >/dev/null || { echo "error: protoc not found (apt-get install protobuf-compiler)" >&2; exit 1; }

find_checkout() {
    if [[ $# -ge 1 && -n "$1" ]]; then
        [[ -f "$1/Package.swift" ]] || { echo "error: $1 is not a swift-protobuf checkout (no Package.swift)" >&2; exit 1; }
        echo "$1"
        return
    fi
    local dir
    for dir in "$root"/.build*/checkouts/swift-protobuf; do
        if [[ -f "$dir/Package.swift" ]]; then echo "$dir"; return; fi
    done
    echo "error: no swift-protobuf checkout in $root/.build*/checkouts; run 'swift package resolve' or pass its path" >&2
    exit 1
}

plugin="${PROTOC_GEN_SWIFT:-}"
if [[ -z "$plugin" ]]; then
    checkout="$(find_checkout "${1:-}")"
    if [[ -x "$checkout/.build/release/protoc-gen-swift" ]]; then
        plugin="$checkout/.build/release/protoc-gen-swift"
    elif [[ -x "$scratch/release/protoc-gen-swift" ]]; then
        plugin="$scratch/release/protoc-gen-swift"
    else
        echo "building protoc-gen-swift from $checkout (about 80 s)..." >&2
        swift build -c release --package-path "$checkout" --scratch-path "$scratch" --product protoc-gen-swift >&2
        plugin="$scratch/release/protoc-gen-swift"
    fi
fi
[[ -x "$plugin" ]] || { echo "error: $plugin is not an executable protoc-gen-swift" >&2; exit 1; }

echo "using $("$plugin" --version) ($plugin) and $(protoc --version)" >&2
protoc \
    --proto_path="$proto_dir" \
    --plugin=protoc-gen-swift="$plugin" \
    --swift_opt=Visibility=Internal \
    --swift_out="$proto_dir" \
    "$proto_dir/$proto.proto"
echo "wrote $proto_dir/$proto.pb.swift" >&2
