#!/usr/bin/env bash
# Checks what `import Fovea` exposes (Sources/Fovea/Exports.swift), against the
# debug build's modules (run `swift build` first; scripts/ci/docs.sh calls this):
#
# 1. a user's file with only `import Fovea` type-checks while naming the
#    user-facing API: Model, requests, handlers, observations, Tensor,
#    FoveaError, PixelBuffer, ImageOrientation, configuration, BackendRegistry;
#    and a plugin backend type-checks with `import Fovea` + `import FoveaPlugins`;
# 2. the same file fails to type-check on each internal type it names
#    (Graph, ExecutionPlan, passes, the memory planner, ...), on each tooling
#    type of FoveaTools (benchmarks, parity, conformance, inspect reports, .npy
#    files) and on each plugin type FoveaPlugins re-exports (Node, Op,
#    RunContext, ...) and each frame type of FoveaFrames (DetectBarcodesRequest,
#    Y4MReader, ...), one "cannot find type" error per name; and the
#    `@_spi(Internals)` and `package` members (model.graph, model.plan(),
#    model.predict, softmax) are not reachable;
# 3. with `import FoveaCore`, `import FoveaImage`, `import FoveaTools` and `import FoveaFrames`,
#    they are found (so 2 failed for the right reason, not because the
#    modules could not be loaded);
# 4. the `Fovea` product's targets, followed through their dependencies in
#    the manifest, include neither FoveaTools nor FoveaFrames and its FFTW and
#    zbar modules (the library does not build them);
# 5. top-level code (a main.swift) gets the asynchronous `perform`: with
#    `try await` it type-checks with warnings as errors (no "no 'async'
#    operations occur within 'await'"), and without `await` it is an error
#    (no synchronous overload of the same name to fall back to);
# 6. `Model(contentsOf: "path")` (and the handler's and labels') is an error
#    whose message names `init(contentsOfFile:)`.
#
# Prints one "ok"/"FAIL" line per check; exits non-zero if any failed.
set -uo pipefail
cd "$(dirname "$0")/../.."
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
    let precision: Precision = .bf16
    let registry: BackendRegistry = .standard
    let backend: BackendName = .simd
    _ = (model, configuration, request, handler, observations, labels, crop, type, error, pixels,
         orientation, image, limits, matching, memory, optimizations, precision, registry, backend)
}

EOF
if typecheck "$work/public.swift" > "$work/public.txt" 2>&1; then
  echo "ok: \`import Fovea\` alone names the user-facing API"
else
  echo "FAIL: \`import Fovea\` alone does not type-check the user-facing API:"; head -30 "$work/public.txt"
  failed=1
fi

cat > "$work/plugin.swift" <<'EOF'
import Fovea
import FoveaPlugins

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
let registry = BackendRegistry([DoublingBackend()] + BackendRegistry.standard.backends)
EOF
if typecheck "$work/plugin.swift" > "$work/plugin.txt" 2>&1; then
  echo "ok: a plugin backend type-checks with \`import Fovea\` and \`import FoveaPlugins\`"
else
  echo "FAIL: a plugin backend does not type-check with \`import Fovea\` and \`import FoveaPlugins\`:"; head -30 "$work/plugin.txt"
  failed=1
fi

internal=(Graph ExecutionPlan GraphOptimizer GraphPass FoldBatchNormalization FuseConvActivation
          MemoryPlanner MemoryPlan ArenaPlanner ReferenceBackend ConvAttributes SpatialGeometry
          SeededGenerator SafeText FileContents ImageEncoder EncodedImage EXIFOrientation)
# The tooling the CLI uses, in FoveaTools (Sources/FoveaTools): not part of `Fovea`.
tools=(LatencyBenchmark LayerBenchmark LayerBenchmarkChart FMAPeak CPUDescription MemoryBandwidth
       ParityCheck ConformanceRunner ConformanceManifest ModelSummary PlanReport ArenaDiagram NumpyFile)
# What plugin authors get from FoveaPlugins, not from `import Fovea`; and the CLI's own helpers (`package`).
plugin=(Backend PreparedStep NodeContext StepBuffers TensorView Node Op RunContext ModelSidecar ModelFile)
# The FoveaFrames product's (FFTW, zbar): `import FoveaFrames`, not `import Fovea`.
frames=(DetectBarcodesRequest TranslationalImageRegistrationRequest ImageRequest SequenceRequestHandler
        SceneStabilityDetector FrameClassifier Y4MReader PhaseCorrelator BarcodeScanner)
{
  echo "import Fovea"
  for t in "${internal[@]}" "${tools[@]}" "${plugin[@]}" "${frames[@]}"; do echo "let _: $t.Type? = nil"; done
} > "$work/internal.swift"
typecheck "$work/internal.swift" > "$work/internal.txt" 2>&1
leaked=()
for t in "${internal[@]}" "${tools[@]}" "${plugin[@]}" "${frames[@]}"; do
  grep -q "cannot find type '$t' in scope" "$work/internal.txt" || leaked+=("$t")
done
if [ ${#leaked[@]} -eq 0 ]; then
  echo "ok: \`import Fovea\` does not expose ${#internal[@]} internal types (${internal[*]:0:4} ...) ${#tools[@]} tooling types (${tools[*]:0:4} ...) ${#plugin[@]} plugin or package types (${plugin[*]:0:4} ...) nor ${#frames[@]} frame types (${frames[*]:0:4} ...)"
else
  echo "FAIL: \`import Fovea\` exposes internal, tooling or frame types: ${leaked[*]}"; head -20 "$work/internal.txt"
  failed=1
fi

{ echo "import Fovea"; echo "import FoveaCore"; echo "import FoveaImage"; echo "import FoveaTools"; echo "import FoveaFrames"
  tail -n +2 "$work/internal.swift" | grep -v -e ModelSidecar -e ModelFile; } > "$work/explicit.swift"
if typecheck "$work/explicit.swift" > "$work/explicit.txt" 2>&1; then
  echo "ok: with \`import FoveaCore\`, \`import FoveaImage\`, \`import FoveaTools\` and \`import FoveaFrames\` they are found"
else
  echo "FAIL: the internal, tooling and frame types are not found even with \`import FoveaCore\`, \`import FoveaImage\`, \`import FoveaTools\` and \`import FoveaFrames\`:"
  head -20 "$work/explicit.txt"
  failed=1
fi

# 4. What the `Fovea` product builds, from the manifest: not FoveaTools, and not FoveaFrames
# with its C libraries (classifying must not need FFTW or zbar).
if swift package dump-package > "$work/manifest.json" 2> "$work/manifest.err"; then
  closure=$(python3 - "$work/manifest.json" <<'PY'
import json, sys
manifest = json.load(open(sys.argv[1]))
targets = {t["name"]: t for t in manifest["targets"]}
todo = list(next(p for p in manifest["products"] if p["name"] == "Fovea")["targets"])
seen = set()
while todo:
    name = todo.pop()
    if name in seen or name not in targets:  # other packages' products
        continue
    seen.add(name)
    for dependency in targets[name].get("dependencies", []):
        for kind in ("byName", "target"):
            if kind in dependency:
                todo.append(dependency[kind][0])
print(" ".join(sorted(seen)))
PY
)
  if [ -z "$closure" ]; then
    echo "FAIL: could not list the Fovea product's targets"
    failed=1
  elif [[ " $closure " =~ " "(FoveaTools|FoveaFrames|CFFTW|CZBar)" " ]]; then
    echo "FAIL: the Fovea product depends on ${BASH_REMATCH[1]} (its targets: $closure)"
    failed=1
  else
    echo "ok: the Fovea product's $(wc -w <<< "$closure") targets include neither FoveaTools nor FoveaFrames, CFFTW, CZBar"
  fi
else
  echo "FAIL: swift package dump-package failed:"; tail -5 "$work/manifest.err"
  failed=1
fi
# 2b. Members kept out of `import Fovea`: @_spi(Internals) and package ones.
cat > "$work/spi.swift" <<'EOF'
import Fovea
func members(_ model: Model) throws {
    _ = model.graph
    _ = try model.plan()
    _ = try model.predict([:])
    _ = softmax([1, 2])
}
EOF
typecheck "$work/spi.swift" > "$work/spi.txt" 2>&1
reached=()
for member in graph plan predict softmax; do
  grep -qE "'$member'" "$work/spi.txt" || reached+=("$member")
done
if [ ${#reached[@]} -eq 0 ]; then
  echo "ok: model.graph, model.plan(), model.predict and softmax are not reachable with \`import Fovea\`"
else
  echo "FAIL: reachable with \`import Fovea\`: ${reached[*]}"; head -20 "$work/spi.txt"
  failed=1
fi

# 5. Top-level code gets the asynchronous perform.
mkdir -p "$work/toplevel" "$work/blocking"
cat > "$work/toplevel/main.swift" <<'EOF'
import Foundation
import Fovea

let model = try Model(contentsOf: URL(fileURLWithPath: "squeezenet1.1.onnx"))
let request = try ClassificationRequest(model: model)
let handler = try ImageRequestHandler(contentsOf: URL(fileURLWithPath: "red_panda.jpg"))
for observation in try await handler.perform(request) { print(observation.identifier) }
EOF
sed 's/try await handler.perform(request)/try handler.perform(request)/' "$work/toplevel/main.swift" > "$work/blocking/main.swift"
if typecheck -warnings-as-errors "$work/toplevel/main.swift" > "$work/toplevel.txt" 2>&1 &&
   ! typecheck "$work/blocking/main.swift" > "$work/blocking.txt" 2>&1 && grep -q "async" "$work/blocking.txt"; then
  echo "ok: top-level \`try await handler.perform(request)\` is the asynchronous perform (no warning; without await it is an error)"
else
  echo "FAIL: top-level perform:"; head -10 "$work/toplevel.txt"; head -10 "$work/blocking.txt"
  failed=1
fi

# 6. A path String is `contentsOfFile:`; the old `contentsOf:` spelling with a path is an
#    error whose message names the new one (unavailable, renamed).
cat > "$work/renamed.swift" <<'EOF'
import Fovea
func load() throws {
    _ = try Model(contentsOf: "squeezenet1.1.onnx")
    _ = try ImageRequestHandler(contentsOf: "red_panda.jpg")
    _ = try ClassLabels(contentsOf: "labels.txt")
}
EOF
typecheck "$work/renamed.swift" > "$work/renamed.txt" 2>&1
renamed=$(grep -cE "^[^ ].*renamed.swift:[0-9]+:[0-9]+: error: .* has been renamed to 'init\(contentsOfFile:" "$work/renamed.txt")
if [ "$renamed" -eq 3 ] && sed 's/contentsOf:/contentsOfFile:/' "$work/renamed.swift" > "$work/new.swift" && typecheck "$work/new.swift" > /dev/null 2>&1; then
  echo "ok: a path is init(contentsOfFile:); the old init(contentsOf: String) of Model, ImageRequestHandler and ClassLabels is an error naming it"
else
  echo "FAIL: init(contentsOf: String) should be unavailable, renamed to init(contentsOfFile:) ($renamed of 3):"; head -20 "$work/renamed.txt"
  failed=1
fi
exit $failed
