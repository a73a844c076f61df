#!/usr/bin/env bash
# Regenerates the committed Swift for one of our .proto subsets:
#   onnx    Sources/FoveaONNX/Proto/onnx-subset.proto     -> onnx-subset.pb.swift
#   coreml  Sources/FoveaCoreML/Proto/coreml-subset.proto -> coreml-subset.pb.swift
#   serve   Server/Sources/FoveaServer/Proto/open-inference-v2.proto
#           -> Server/Sources/FoveaServerProtocol/Proto/open-inference-v2.pb.swift
#           (the messages, public: the decoders and fuzzers use them) and
#           Server/Sources/FoveaServer/Proto/open-inference-v2.grpc.swift (the gRPC
#           service, by protoc-gen-grpc-swift-2, importing FoveaServerProtocol)
#
# Usage: scripts/gen/generate-proto.sh onnx|coreml|serve [SWIFT_PROTOBUF_DIR]
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
# For `serve`, protoc-gen-grpc-swift-2 (grpc-swift-protobuf, the Server package's
# version) comes from $PROTOC_GEN_GRPC_SWIFT, else is built (a few minutes) from
# the checkout in Server/.build/checkouts (`cd Server && swift package resolve`)
# into .build-protoc-plugins/.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
case "${1:-}" in
    onnx) proto_dir="$root/Sources/FoveaONNX/Proto"; proto="onnx-subset"; swift_out="$proto_dir"; visibility=Internal ;;
    coreml) proto_dir="$root/Sources/FoveaCoreML/Proto"; proto="coreml-subset"; swift_out="$proto_dir"; visibility=Internal ;;
    serve) proto_dir="$root/Server/Sources/FoveaServer/Proto"; proto="open-inference-v2"
        swift_out="$root/Server/Sources/FoveaServerProtocol/Proto"; visibility=Public ;;
    *) echo "usage: scripts/gen/generate-proto.sh onnx|coreml|serve [SWIFT_PROTOBUF_DIR]" >&2; exit 2 ;;
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
    for dir in "$root"/.build*/checkouts/swift-protobuf "$root"/Server/.build*/checkouts/swift-protobuf; do
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
    --swift_opt=Visibility=$visibility \
    --swift_out="$swift_out" \
    "$proto_dir/$proto.proto"
echo "wrote $swift_out/$proto.pb.swift" >&2

if [[ "$proto" == open-inference-v2 ]]; then
    grpc_plugin="${PROTOC_GEN_GRPC_SWIFT:-}"
    if [[ -z "$grpc_plugin" ]]; then
        grpc_checkout="$root/Server/.build/checkouts/grpc-swift-protobuf"
        [[ -f "$grpc_checkout/Package.swift" ]] || { echo "error: no $grpc_checkout; run 'swift package resolve' in Server/" >&2; exit 1; }
        grpc_plugin="$root/.build-protoc-plugins/debug/protoc-gen-grpc-swift-2"
        if [[ ! -x "$grpc_plugin" ]]; then
            echo "building protoc-gen-grpc-swift-2 from $grpc_checkout (a few minutes)..." >&2
            swift build --package-path "$grpc_checkout" --scratch-path "$root/.build-protoc-plugins" --product protoc-gen-grpc-swift-2 >&2
        fi
    fi
    protoc \
        --proto_path="$proto_dir" \
        --plugin=protoc-gen-grpc-swift-2="$grpc_plugin" \
        --grpc-swift-2_opt=Visibility=Internal,Server=true,Client=false,ExtraModuleImports=FoveaServerProtocol \
        --grpc-swift-2_out="$proto_dir" \
        "$proto_dir/$proto.proto"
    echo "wrote $proto_dir/$proto.grpc.swift" >&2
fi
