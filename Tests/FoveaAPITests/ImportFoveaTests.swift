// This target depends on the `Fovea` and `FoveaPlugins` products' modules alone and
// imports nothing else of the package: it compiles only if `import Fovea` exposes the
// user-facing API (Sources/Fovea/Exports.swift) and `import FoveaPlugins` what a
// backend plugin needs (Sources/FoveaPlugins/Exports.swift).
// That `import Fovea` does *not* expose the internals (Graph, ExecutionPlan,
// passes, ...) nor the CLI's tooling (FoveaTools: LatencyBenchmark, ParityCheck,
// ...) is checked by scripts/ci/api-boundary.sh, which needs a compile that fails.
import Fovea
import FoveaPlugins
import XCTest

final class ImportFoveaTests: XCTestCase {
    /// A plugin written against `import Fovea` only: Relu on float tensors.
    struct PluginRelu: Backend {
        let name = "plugin-relu"
        func supports(_ node: NodeContext) -> Bool {
            if case .relu = node.op { return node.inputType(0)?.dataType == .float32 }
            return false
        }
        func prepare(_ node: NodeContext) throws -> any PreparedStep { Step() }
        struct Step: PreparedStep {
            var algorithm: String { "plugin" }
            func run(_ buffers: StepBuffers, context: RunContext) throws {
                let input: TensorView = try buffers.input(0, "Relu")
                let output: TensorView = buffers.outputs[0]
                for i in 0..<input.count { output.floats[i] = max(0, input.floats[i]) }
            }
        }
    }

    func testUserFacingTypesAreNamedThroughImportFovea() throws {
        let tensor = try Tensor(shape: [1, 3], floats: [1, -2, 3])
        XCTAssertEqual(tensor.dataType, DataType.float32)
        XCTAssertEqual(tensor.shape, [1, 3])
        let error = FoveaError(.invalidArgument, "an example")
        XCTAssertTrue("\(error)".contains("an example"))
        let configuration = ModelConfiguration(backends: [BackendName.simd], threads: 1,
                                               optimizations: OptimizationOptions(), memoryLimit: MemoryLimit.unlimited)
        XCTAssertEqual(configuration.backendNames, [.simd])
        let pixels = PixelBuffer(width: 2, height: 1, format: PixelFormat.gray8, bytes: [0, 255])
        XCTAssertEqual(pixels.width, 2)
        let orientation: ImageOrientation = .up
        let handler = try ImageRequestHandler(pixelBuffer: pixels, orientation: orientation)
        XCTAssertEqual(try handler.image.width, 2)
        let limits: ImageDecodingLimits = .default
        XCTAssertGreaterThan(limits.maxPixelCount, 0)
        let observation = ClassificationObservation(identifier: "cat", confidence: 0.5)
        XCTAssertEqual(observation.identifier, "cat")
        let crop: ImageCropAndScaleOption = .centerCrop
        XCTAssertEqual(crop, .centerCrop)
    }

    func testAPluginBackendNeedsOnlyImportFovea() throws {
        let registry = BackendRegistry([PluginRelu()] + BackendRegistry.standard.backends)
        let backends = try registry.backends(named: ["plugin-relu"])
        XCTAssertEqual(backends.map(\.name), ["plugin-relu"])

        let type = TensorType(.float32, [1, 4])
        let node = NodeContext(node: Node(name: "relu", op: .relu, inputs: ["x"], outputs: ["y"]),
                               inputTypes: [type], outputTypes: [type], constantInputs: [:])
        XCTAssertTrue(backends[0].supports(node))
        let step = try backends[0].prepare(node)
        var input: [Float] = [-1, 2, -3, 4]
        var output = [Float](repeating: 0, count: 4)
        try input.withUnsafeMutableBytes { inputBytes in
            try output.withUnsafeMutableBytes { outputBytes in
                let buffers = StepBuffers(
                    inputs: [TensorView(base: inputBytes.baseAddress!, dataType: .float32, shape: [1, 4])],
                    outputs: [TensorView(base: outputBytes.baseAddress!, dataType: .float32, shape: [1, 4])],
                    workspace: nil)
                try step.run(buffers, context: RunContext(threads: 1))
            }
        }
        XCTAssertEqual(output, [0, 2, 0, 4])
    }
}
