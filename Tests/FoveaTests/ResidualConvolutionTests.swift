import FoveaCore
import XCTest
import FoveaTestSupport
@_spi(Internals) @testable import Fovea

/// A Conv with a fused residual (`FuseConvAdd`) on every fast backend against
/// the reference: each step's algorithm, run contiguous, into a strided
/// slice and over the residual's own memory (LayerCheck), over random shapes
/// of the GEMM, im2col, Winograd and grouped families, with and without an
/// activation; and whole models with residual blocks against their unfused graphs.
final class ResidualConvolutionTests: XCTestCase {
    private func backends(_ names: [String], winograd: WinogradPolicy = .measured) throws -> [any Backend] {
        try BackendRegistry.standard(winograd: winograd).backends(named: names)
    }

    /// One random case of `family` turned into Conv(+add)(+activation) inputs: X, W, B, residual.
    private func residualCase(_ rng: inout ConvRandom, family: ConvCase.Family, runTimeBias: Bool = true) throws -> (op: Op, inputs: [Tensor], constants: Set<Int>, description: String) {
        var c = ConvCase.random(&rng, family: family, spatial: rng.pick([5, 9, 14]))
        let output = try c.reference().shape
        c.attributes.addsResidual = true
        c.attributes.activation = rng.pick([nil, .relu, .clip(min: 0, max: 6), .leakyRelu(alpha: 0.1)] as [FusedActivation?])
        let bias = try c.bias ?? Tensor(shape: [c.weights.shape[0]], floats: rng.floats(c.weights.shape[0]))
        let residual = try Tensor(shape: output, floats: rng.floats(output.elementCount).map { $0 * 3 })
        let constants: Set<Int> = c.bias == nil || c.biasIsConstant || !runTimeBias ? [1, 2] : [1]
        return (.conv(c.attributes), [c.input, c.weights, bias, residual], constants, "\(c) +add")
    }

    func testEveryFastBackendAddsTheResidualAsTheReferenceDoes() throws {
        var rng = ConvRandom(seed: 2026)
        let families: [ConvCase.Family] = [.pointwise, .spatial, .winograd, .grouped]
        for backend in try backends(["kernels", "simd", "blas"]) {
            var algorithms = Set<String>()
            for family in families {
                for trial in 0..<6 {
                    // The blas backend takes constant biases only.
                    let c = try residualCase(&rng, family: family, runTimeBias: backend.name != "blas")
                    let algorithm = try LayerCheck.check(backend, c.op, c.inputs, constants: c.constants, tolerance: nil,
                                                         threads: 1 + trial % 2, "\(backend.name) \(family) #\(trial): \(c.description)")
                    XCTAssertTrue(algorithm.contains("+add"), "\(backend.name): \(algorithm)")
                    algorithms.insert(String(algorithm.prefix(while: { $0 != " " })))
                }
            }
            if backend.name == "kernels" {
                // The GEMM starts from the residual; Winograd adds it in a second pass.
                XCTAssertTrue(algorithms.contains("gemm") && algorithms.contains(where: { $0.hasPrefix("winograd") }), "\(algorithms)")
            }
        }
    }

    /// Winograd under every forced variant, where the residual pass follows the output transform.
    func testKernelsWinogradVariantsAddTheResidual() throws {
        var rng = ConvRandom(seed: 7)
        for (variant, tile) in [(ConvolutionAlgorithm.winogradF2, 2), (.winogradF4, 4), (.winogradF6, 6)] {
            let backend = try backends(["kernels"], winograd: .forced(variant))[0]
            for trial in 0..<4 {
                let c = try residualCase(&rng, family: .winograd)
                let algorithm = try LayerCheck.check(backend, c.op, c.inputs, constants: c.constants, tolerance: nil,
                                                     threads: 1 + trial % 2, "\(variant) #\(trial): \(c.description)")
                XCTAssertTrue(algorithm.hasPrefix("winograd_f\(tile)"), algorithm)
            }
        }
    }

    /// A residual whose planned type is not the output's is declined at planning, never run.
    func testWrongResidualShapeIsDeclined() throws {
        var rng = ConvRandom(seed: 3)
        let c = try residualCase(&rng, family: .pointwise)
        let context = try LayerCheck.nodeContext(c.op, c.inputs, constants: c.constants)
        var shape = c.inputs[3].shape
        shape[1] += 1
        let types = context.inputTypes.enumerated().map { $0.offset == 3 ? TensorType(.float32, shape) : $0.element }
        let wrong = NodeContext(node: context.node, inputTypes: types, outputTypes: context.outputTypes,
                                constantInputs: context.constantInputs)
        for backend in try backends(["kernels", "simd", "blas"]) {
            XCTAssertTrue(backend.supports(context), backend.name)
            XCTAssertFalse(backend.supports(wrong), backend.name)
        }
    }

    /// TinyResNet (3×3 convolutions with residual adds, a strided shortcut):
    /// fused and unfused graphs agree on every backend, and the plan places
    /// each fused output over its residual.
    func testTinyResNetFusedMatchesUnfusedOnEveryBackend() throws {
        let url = TestData.model("coreml/TinyResNet.onnx")
        for backend in ["kernels", "simd", "blas", "reference"] {
            let fused = try Model(contentsOfFile: url, configuration: ModelConfiguration(backends: [backend], threads: 2))
            var unfusedConfiguration = ModelConfiguration(backends: [backend], threads: 2)
            unfusedConfiguration.optimizations = OptimizationOptions(fuseActivations: false)
            let unfused = try Model(contentsOfFile: url, configuration: unfusedConfiguration)
            XCTAssertEqual(fused.graph.opHistogram["Add"], nil, backend)
            XCTAssertEqual(unfused.graph.opHistogram["Add"], 2, backend)
            let plan = try fused.plan()
            let residualSteps = plan.assignments.filter { $0.algorithm.contains("+add") }
            XCTAssertEqual(residualSteps.count, 2, "\(backend): \(plan.assignments.map(\.algorithm))")
            var generator = SeededGenerator(seed: 5)
            var feeds: [String: Tensor] = [:]
            for (name, type) in try fused.plan().inputTypes { feeds[name] = LayerCheck.randomTensor(type.shape, in: -1...1, using: &generator) }
            let a = try fused.predict(feeds), b = try unfused.predict(feeds)
            for (name, expected) in b {
                let actual = try XCTUnwrap(a[name]?.floats), wanted = try XCTUnwrap(expected.floats)
                let scale = max(1e-30, wanted.map(abs).max() ?? 0)
                let error = zip(actual, wanted).map { abs($0 - $1) }.max() ?? 0
                XCTAssertLessThanOrEqual(error / scale, 1e-5, "\(backend): output \(name)")
            }
        }
    }
}
