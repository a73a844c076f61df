#!/usr/bin/env bash
# Checks what `import Fovea` exposes (Sources/Fovea/Exports.swift), against the
# debug build's modules (run `swift build` first; scripts/docs.sh calls this):
#
# 1. a user's file with only `import Fovea` type-checks while naming the
#    user-facing API: Model, requests, handlers, observations, Tensor,
#    FoveaError, PixelBuffer, ImageOrientation, configuration, BackendRegistry,
#    and the Backend protocol with the types its requirements mention;
# 2. the same file fails to type-check on each internal type it names
#    (Graph, ExecutionPlan, passes, the memory planner, ..., and the
#    conformance runner, which is `@_spi(FoveaTools)` in Fovea itself), one
#    "cannot find type" error per name;
# 3. with `import FoveaCore`, `import FoveaImage` and
#    `@_spi(FoveaTools) import Fovea`, they are found (so 2 failed for the
#    right reason, not because the modules could not be loaded).
#
# Prints one "ok"/"FAIL" line per check; exits non-zero if any failed.
set -uo pipefail
cd "$(dirname "$0")/.."
bin=$(swift build --show-bin-path 2>/dev/null)
[ -f "$bin/Modules/Fovea.swiftmodule" ] || { echo "FAIL: no $bin/Modules/Fovea.swiftmodule (run swift build first)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The C modules the Swift modules import: system libraries' and C targets' module maps.
flags=(-I "$bin/Modules")
for map in "$PWD"/Sources/C*/module.modulemap "$bin"/*.build/module.modulemap \
           "$PWD"/.build/checkouts/*/Sources/*/include/module.modulemap; do
  [ -f "$map" ] || continue
  flags+=(-Xcc "-fmodule-map-file=$map" -I "$(dirname "$map")")
done
flags+=(-I Kernels/include)
for pc in libturbojpeg libpng libheif libwebpdemux lcms2 zlib fftw3f zbar openblas; do
  for f in $(pkg-config --cflags-only-I "$pc" 2>/dev/null); do flags+=(-Xcc "$f"); done
done
typecheck() { swiftc -typecheck -module-cache-path "$bin/ModuleCache" "${flags[@]}" "$@"; }
failed=0

cat > "$work/public.swift" <<'EOF'
import Fovea

// The user-facing API, by name.
func userFacing() throws {
    let model: Model? = nil
    let configuration = ModelConfiguration(threads: 1)
    let request: ClassificationRequest? = nil
    let handler: ImageRequestHandler? = nil
    let observations: [ClassificationObservation] = []
    let labels: ClassLabels? = nil
    let crop: ImageCropAndScaleOption = .centerCrop
    let tensor = Tensor(shape: [1, 3], repeating: 0)
    let type: DataType = tensor.dataType
    let error = FoveaError(.invalidArgument, "example")
    let pixels: PixelBuffer? = nil
    let orientation: ImageOrientation = .up
    let image: RGBImage? = nil
    let limits = ImageDecodingLimits.default
    let matching: ColorMatching = .off
    let memory: MemoryLimit = .unlimited
    let optimizations = OptimizationOptions()
    let registry: BackendRegistry = .standard
    let backend: BackendName = .simd
    _ = (model, configuration, request, handler, observations, labels, crop, type, error, pixels,
         orientation, image, limits, matching, memory, optimizations, registry, backend)
}

// A plugin backend: everything Backend's requirements mention.
struct DoublingBackend: Backend {
    let name = "doubling"
    func supports(_ node: NodeContext) -> Bool {
        if case .relu = node.op { return node.inputType(0)?.dataType == .float32 }
        return false
    }
    func prepare(_ node: NodeContext) throws -> any PreparedStep { Step() }
    struct Step: PreparedStep {
        var algorithm: String { "doubling" }
        func run(_ buffers: StepBuffers, context: RunContext) throws {
            let input: TensorView = try buffers.input(0, "Relu")
            let output: TensorView = buffers.outputs[0]
            for i in 0..<input.count { output.floats[i] = max(0, input.floats[i]) }
        }
    }
}
EOF
if typecheck "$work/public.swift" > "$work/public.txt" 2>&1; then
  echo "ok: \`import Fovea\` alone names the user-facing API and the Backend plugin types"
else
  echo "FAIL: \`import Fovea\` alone does not type-check the user-facing API:"; head -30 "$work/public.txt"
  failed=1
fi

internal=(Graph ExecutionPlan GraphOptimizer GraphPass FoldBatchNormalization FuseConvActivation
          MemoryPlanner MemoryPlan ArenaPlanner ReferenceBackend ConvAttributes SpatialGeometry
          SeededGenerator SafeText FileContents ImageEncoder EncodedImage EXIFOrientation
          ConformanceRunner ConformanceManifest)
{
  echo "import Fovea"
  for t in "${internal[@]}"; do echo "let _: $t.Type? = nil"; done
} > "$work/internal.swift"
typecheck "$work/internal.swift" > "$work/internal.txt" 2>&1
leaked=()
for t in "${internal[@]}"; do
  grep -q "cannot find type '$t' in scope" "$work/internal.txt" || leaked+=("$t")
done
if [ ${#leaked[@]} -eq 0 ]; then
  echo "ok: \`import Fovea\` does not expose ${#internal[@]} internal types (${internal[*]:0:4} ...)"
else
  echo "FAIL: \`import Fovea\` exposes internal types: ${leaked[*]}"; head -20 "$work/internal.txt"
  failed=1
fi

{ echo "@_spi(FoveaTools) import Fovea"; echo "import FoveaCore"; echo "import FoveaImage"; tail -n +2 "$work/internal.swift"; } > "$work/explicit.swift"
if typecheck "$work/explicit.swift" > "$work/explicit.txt" 2>&1; then
  echo "ok: with \`import FoveaCore\`, \`import FoveaImage\` and \`@_spi(FoveaTools) import Fovea\` they are found"
else
  echo "FAIL: the internal types are not found even with \`import FoveaCore\`:"; head -20 "$work/explicit.txt"
  failed=1
fi
exit $failed
