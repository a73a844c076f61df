import XCTest
import FoveaCore
import FoveaTestSupport
@testable import FoveaPortableBackend

/// GEMM-based convolution (im2col or 1x1) sums each output in a different
/// order than the reference (blocks of 1024 over the reduction, FMA), so it
/// may differ by rounding: max |Δ| ≤ 1e-4 × (1 + max |reference|).
let convGemmTolerance: Float = 1e-4
/// Depthwise adds the taps in the reference's order; only FMA contraction
/// could differ: max |Δ| ≤ 1e-5 × (1 + max |reference|).
let convDepthwiseTolerance: Float = 1e-5

final class ConvolutionTests: XCTestCase {
    let backend = SIMDBackend()
    func convPrepare(_ c: ConvCase) throws -> any PreparedStep {
        let context = try c.context()
        XCTAssertTrue(backend.supports(context), "\(c)")
        return try backend.prepare(context)
    }

    func convRun(_ step: any PreparedStep, _ c: ConvCase, threads: Int) throws -> Tensor {
        let inputs = c.bias == nil ? [c.input, c.weights] : c.inputs
        return try step.run(inputs, planned: try c.context(), context: RunContext(threads: threads))[0]
    }

    func convAssertClose(_ result: Tensor, _ reference: Tensor, tolerance: Float, _ message: String,
                         file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(result.shape, reference.shape, message, file: file, line: line)
        guard let r = result.floats, let e = reference.floats, r.count == e.count else {
            return XCTFail("not comparable: \(message)", file: file, line: line)
        }
        let scale = e.reduce(Float(0)) { max($0, abs($1)) }
        let worst = zip(r, e).reduce(Float(0)) { let d = abs($1.0 - $1.1); return d.isNaN ? .infinity : max($0, d) }
        XCTAssertLessThanOrEqual(worst, tolerance * (1 + scale), message, file: file, line: line)
    }

    func convTolerance(_ c: ConvCase) -> Float {
        let g = c.attributes.group
        return g == c.input.shape[1] && g == c.weights.shape[0] ? convDepthwiseTolerance : convGemmTolerance
    }

    /// 200 random small cases on every ISA variant this CPU runs.
    func testRandomCasesMatchReference() throws {
        var rng = ConvRandom(seed: 0xF0FEA)
        var algorithms: Set<String> = []
        var fusedPaths: Set<String> = []
        // The fused activation is one more random parameter, from its own generator.
        var activationRng = ConvRandom(seed: 0xAC7)
        let activations: [FusedActivation?] = [nil, nil, .relu, .relu, .clip(min: 0, max: 0.5), .clip(min: -0.25, max: nil),
                                               .leakyRelu(alpha: 0.1)]
        for index in 0..<200 {
            var c = ConvCase.random(&rng)
            c.attributes.activation = activationRng.pick(activations)
            let reference = try c.reference()
            let step = try convPrepare(c)
            let path = String(step.algorithm.prefix(while: { $0 != " " }))
            algorithms.insert(path)
            if c.attributes.activation != nil {
                XCTAssertTrue(step.algorithm.contains(" +"), step.algorithm)
                fusedPaths.insert(path)
            }
            let result = try convRun(step, c, threads: 1 + index % 2)
            convAssertClose(result, reference, tolerance: convTolerance(c), "case \(index) \(step.algorithm): \(c)")
        }
        // The random mix reaches every path.
        XCTAssertEqual(algorithms, ["gemm", "im2col+gemm", "depthwise"])
        XCTAssertEqual(fusedPaths, ["gemm", "im2col+gemm", "depthwise"])
    }

    /// A few larger planes (37 and 113) that cross many 32-column panels.
    func testLargerPlanesMatchReference() throws {
        var rng = ConvRandom(seed: 37)
        let shapes: [(Int, Int, Int, Int, Int)] = [ // (spatial, channels, outputs, kernel, stride)
            (37, 5, 11, 3, 1), (37, 40, 9, 1, 1), (113, 3, 8, 3, 2), (37, 31, 17, 3, 1), (19, 64, 16, 1, 1), (9, 120, 9, 3, 1),
        ]
        for (index, (spatial, channels, outputs, kernel, stride)) in shapes.enumerated() {
            let x = try Tensor(shape: [1, channels, spatial, spatial], floats: rng.floats(channels * spatial * spatial))
            let w = try Tensor(shape: [outputs, channels, kernel, kernel], floats: rng.floats(outputs * channels * kernel * kernel))
            let b = try Tensor(shape: [outputs], floats: rng.floats(outputs))
            let pad = kernel / 2
            let c = ConvCase(input: x, weights: w, bias: b,
                             attributes: ConvAttributes(kernelShape: [kernel, kernel], strides: [stride, stride],
                                                        dilations: [1, 1], pads: [pad, pad, pad, pad],
                                                        // Odd cases fuse a relu; 9x120x3x3 (k = 1080) has two reduction passes.
                                                        activation: index % 2 == 1 ? .relu : nil))
            let reference = try c.reference()
            let step = try convPrepare(c)
            convAssertClose(try convRun(step, c, threads: 2), reference, tolerance: convGemmTolerance, "\(c)")
        }
    }

    func testOneAndTwoThreadsGiveIdenticalResults() throws {
        var rng = ConvRandom(seed: 2)
        for _ in 0..<20 {
            let c = ConvCase.random(&rng, spatial: 15)
            let step = try convPrepare(c)
            XCTAssertEqual(try convRun(step, c, threads: 1), try convRun(step, c, threads: 2), "\(c)")
        }
    }

    /// 13x13 planes have too few column panels for the threads, so the
    /// output channels are split too; every thread count gives the same bits.
    func testOutputChannelSplitIsIdenticalAcrossThreadCounts() throws {
        var rng = ConvRandom(seed: 13)
        for (kernel, channels, outputs) in [(1, 40, 101), (3, 12, 45)] {
            let x = try Tensor(shape: [1, channels, 13, 13], floats: rng.floats(channels * 169))
            let w = try Tensor(shape: [outputs, channels, kernel, kernel], floats: rng.floats(outputs * channels * kernel * kernel))
            let b = try Tensor(shape: [outputs], floats: rng.floats(outputs))
            let pad = kernel / 2
            let c = ConvCase(input: x, weights: w, bias: b,
                             attributes: ConvAttributes(kernelShape: [kernel, kernel], strides: [1, 1], dilations: [1, 1],
                                                        pads: [pad, pad, pad, pad], activation: .relu))
            let reference = try c.reference()
            let step = try convPrepare(c)
            let one = try convRun(step, c, threads: 1)
            convAssertClose(one, reference, tolerance: convGemmTolerance, "\(c)")
            for threads in [2, 3, 5] {
                XCTAssertEqual(try convRun(step, c, threads: threads), one, "\(threads) threads: \(c)")
            }
        }
    }

    func testAlgorithmNamesSayWhatRuns() throws {
        var rng = ConvRandom(seed: 3)
        func make(_ channels: Int, _ outputs: Int, _ kernel: Int, group: Int = 1, pads: [Int] = [0, 0, 0, 0]) throws -> ConvCase {
            ConvCase(input: try Tensor(shape: [1, channels, 9, 9], floats: rng.floats(channels * 81)),
                     weights: try Tensor(shape: [outputs, channels / group, kernel, kernel],
                                         floats: rng.floats(outputs * channels / group * kernel * kernel)),
                     bias: nil, attributes: ConvAttributes(kernelShape: [kernel, kernel], strides: [1, 1], dilations: [1, 1], pads: pads, group: group))
        }
        XCTAssertTrue(try convPrepare(make(4, 6, 1)).algorithm.hasPrefix("gemm 1x1 8x32"))
        XCTAssertTrue(try convPrepare(make(4, 6, 1, pads: [1, 0, 0, 0])).algorithm.hasPrefix("im2col+gemm 1x1"))
        XCTAssertTrue(try convPrepare(make(4, 6, 3)).algorithm.hasPrefix("im2col+gemm 3x3 8x32"))
        XCTAssertTrue(try convPrepare(make(6, 6, 3, group: 6)).algorithm.hasPrefix("depthwise 3x3"))
        var fused = try make(4, 6, 1)
        fused.attributes.activation = .relu
        XCTAssertTrue(try convPrepare(fused).algorithm.hasSuffix(" +relu"))
        fused.attributes.activation = .clip(min: 0, max: 6)
        XCTAssertTrue(try convPrepare(fused).algorithm.hasSuffix(" +clip(0.0,6.0)"))
    }

    func testDeclinesWhatItDoesNotRun() throws {
        var rng = ConvRandom(seed: 4)
        let c = ConvCase.random(&rng)
        let context = try c.context()
        // Weights that are not constants.
        let noConstants = NodeContext(node: context.node, inputTypes: context.inputTypes,
                                      outputTypes: context.outputTypes, constantInputs: [:])
        XCTAssertFalse(backend.supports(noConstants))
        XCTAssertThrowsError(try backend.prepare(noConstants))
        // A 1-D convolution.
        let oneD = NodeContext(
            node: Node(name: "c1", op: .conv(ConvAttributes(kernelShape: [3], strides: [1], dilations: [1], pads: [0, 0])),
                       inputs: ["x", "w"], outputs: ["y"]),
            inputTypes: [TensorType(.float32, [1, 2, 9]), TensorType(.float32, [4, 2, 3])],
            outputTypes: [TensorType(.float32, [1, 4, 7])],
            constantInputs: [1: Tensor(shape: [4, 2, 3], repeating: 1)])
        XCTAssertFalse(backend.supports(oneD))
        // Integer input.
        let intInput = NodeContext(node: context.node, inputTypes: [TensorType(.int64, c.input.shape)] + context.inputTypes.dropFirst(),
                                   outputTypes: context.outputTypes, constantInputs: context.constantInputs)
        XCTAssertFalse(backend.supports(intInput))
    }

    func testWrongInputAtRunThrowsTypedError() throws {
        var rng = ConvRandom(seed: 5)
        let c = ConvCase.random(&rng)
        let step = try convPrepare(c)
        let planned = try c.context()
        for (inputs, kind) in try c.wrongRunInputs() {
            XCTAssertThrowsError(try step.run(inputs, planned: planned, context: RunContext(threads: 1))) { error in
                XCTAssertEqual((error as? FoveaError)?.kind, kind)
            }
        }
    }
}
