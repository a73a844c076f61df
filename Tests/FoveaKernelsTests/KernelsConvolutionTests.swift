import XCTest
import CFoveaKernels
import FoveaCore
import FoveaTestSupport
@testable import FoveaKernelsBackend

/// Convolutions on the kernels backend against the reference, on the shared
/// ``ConvCase`` families, under every ``WinogradPolicy``. Each case is
/// checked against its own step's written tolerance (`tolerance: nil`): a
/// Winograd step may be looser than the GEMM step of the same convolution.
final class KernelsConvolutionTests: XCTestCase {
    /// Fused activations drawn for the random cases (nil: none).
    static let activations: [FusedActivation?] = [nil, nil, .relu, .relu, .clip(min: 0, max: 6), .clip(min: -0.25, max: nil),
                                                  .clip(min: nil, max: 0.5), .leakyRelu(alpha: 0.1)]

    /// What the random cases reached, to require that every path ran.
    private struct Coverage {
        var paths: Set<String> = []
        var fused: Set<String> = []
        var runTimeBias: Set<String> = []
        var batched: Set<String> = []
        /// The largest relative error seen per algorithm, and that algorithm's step tolerance.
        var worst: [String: (error: Float, tolerance: Float)] = [:]

        /// The step tolerance leaves room for a whole network (F6's is 1e-3);
        /// one layer must also keep within the C kernels' own bound for each
        /// Winograd variant (fovea_winograd.h), which catches a transform
        /// that is off by a little. Prints the worst errors.
        func checkWrittenBounds(file: StaticString = #filePath, line: UInt = #line) {
            for (path, worst) in worst.sorted(by: { $0.key < $1.key }) {
                print("kernels conv \(path): worst relative error \(worst.error) (step tolerance \(worst.tolerance))")
                let variant: ConvolutionAlgorithm? = ["winograd_f2": .winogradF2, "winograd_f4": .winogradF4, "winograd_f6": .winogradF6][path]
                if let bound = variant.flatMap(KernelsTestSupport.writtenWinogradBound) {
                    XCTAssertLessThanOrEqual(worst.error, bound, "\(path): worse than the C kernels' written bound", file: file, line: line)
                }
            }
        }

        mutating func record(_ path: String, _ c: ConvCase, error: Float, tolerance: Float) {
            paths.insert(path)
            if c.attributes.activation != nil { fused.insert(path) }
            if c.bias != nil && !c.biasIsConstant { runTimeBias.insert(path) }
            if c.input.shape[0] > 1 { batched.insert(path) }
            let old = worst[path] ?? (0, tolerance)
            worst[path] = (Swift.max(old.error, error), tolerance)
        }
    }

    /// The path name of an algorithm string: `gemm 1x1`, `im2col+gemm`, `winograd_f4`, `dwconv_3x3s1`, ...
    private static func path(_ algorithm: String) -> String {
        if algorithm.hasPrefix("gemm 1x1") { return "gemm 1x1" }
        if algorithm.hasPrefix("im2col+gemm") { return "im2col+gemm" }
        if algorithm.hasPrefix("winograd_f") { return String(algorithm.prefix("winograd_f2".count)) }
        // dwconv_3x3s1_avx512 -> dwconv_3x3s1
        let name = algorithm.prefix { $0 != " " }
        let isa = KernelsTestSupport.f32KernelISA
        return name.hasSuffix("_\(isa)") ? String(name.dropLast(isa.count + 1)) : String(name)
    }

    /// Checks `c` on a backend with `policy` (LayerCheck: the step's own
    /// tolerance, its exact workspace, a strided output for batch > 1) and its
    /// routing, and records the path and the error. Returns the algorithm.
    @discardableResult
    private func checkCase(_ c: ConvCase, _ policy: WinogradPolicy, threads: Int, _ label: String,
                           coverage: inout Coverage, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let backend = KernelsBackend(winograd: policy)
        let context = try c.context()
        XCTAssertTrue(backend.supports(context), "\(label): declined \(c)", file: file, line: line)
        let algorithm = try LayerCheck.check(backend, c.op, c.presentInputs, constants: c.constantIndices, tolerance: nil,
                                             threads: threads, "\(label) policy \(policy): \(c)", file: file, line: line)
        let prefix = try KernelsTestSupport.expectedAlgorithmPrefix(c, policy)
        XCTAssertTrue(algorithm.hasPrefix(prefix), "\(label) policy \(policy): ran '\(algorithm)', expected '\(prefix)...' for \(c)",
                      file: file, line: line)
        XCTAssertTrue(algorithm.contains(KernelsTestSupport.f32KernelISA), "\(label): '\(algorithm)' does not name the ISA", file: file, line: line)
        if let activation = c.attributes.activation {
            XCTAssertTrue(algorithm.hasSuffix(" +\(activation)"), "\(label): '\(algorithm)' does not show the fused \(activation)",
                          file: file, line: line)
        } else {
            XCTAssertFalse(algorithm.contains(" +"), "\(label): '\(algorithm)' shows a fused activation", file: file, line: line)
        }
        let step = try backend.prepare(context)
        let actual = try step.run(c.inputs, planned: context, context: RunContext(threads: threads))[0]
        let error = KernelsTestSupport.relativeError(actual, try c.reference())
        coverage.record(Self.path(algorithm), c, error: error, tolerance: step.tolerance)
        return algorithm
    }

    /// Random cases of every family. Winograd-shaped ones run under each
    /// policy (GEMM, F2, F4, F6, measured); the others under `off` and
    /// `measured`, which must not change their routing.
    func testRandomFamiliesOnEveryPolicy() throws {
        var coverage = Coverage()
        var activationRng = ConvRandom(seed: 0xAC7)
        let plan: [(ConvCase.Family, count: Int, policies: [WinogradPolicy])] = [
            (.winograd, 30, KernelsTestSupport.policies),
            (.pointwise, 24, [.off, .measured]),
            (.spatial, 24, [.off, .forced(.winogradF4)]),
            (.grouped, 12, [.off, .forced(.winogradF2)]),
            (.depthwise, 30, [.measured, .forced(.winogradF6)]),
            (.mixed, 40, [.off, .measured]),
        ]
        var index = 0
        for (familyIndex, (family, count, policies)) in plan.enumerated() {
            var rng = ConvRandom(seed: 0xC0DE + UInt64(familyIndex))
            for n in 0..<count {
                var c = ConvCase.random(&rng, family: family)
                c.attributes.activation = activationRng.pick(Self.activations)
                for policy in policies {
                    try checkCase(c, policy, threads: 1 + index % 2, "\(family) case \(n)", coverage: &coverage)
                    index += 1
                }
            }
        }
        let every: Set<String> = ["gemm 1x1", "im2col+gemm", "winograd_f2", "winograd_f4", "winograd_f6",
                                  "dwconv_3x3s1", "dwconv_3x3s2", "dwconv_kxk"]
        // Cases with at most 4 input channels may go to the direct small-channel kernel under the measured
        // policy; KernelsSmallChannelConvolutionTests covers that path on its own.
        let others: Set<String> = ["direct-smallc"]
        XCTAssertEqual(coverage.paths.subtracting(others), every, "the random families reach every path")
        XCTAssertEqual(coverage.fused.subtracting(others), every, "every path ran with a fused activation")
        XCTAssertEqual(coverage.runTimeBias.subtracting(others), every, "every path ran with a run-time bias")
        XCTAssertEqual(coverage.batched.subtracting(others), every, "every path ran with batch > 1")
        coverage.checkWrittenBounds()
    }

    /// Larger planes and channel counts: many column panels, a reduction over
    /// two K blocks (120 channels × 3×3 = 1080 > 512), Winograd on planes of
    /// several tile blocks, depthwise layers of MobileNet's, ConvNeXt's (7×7)
    /// and EfficientNet's (5×5) shapes.
    func testLargerShapesOnEveryPolicy() throws {
        var coverage = Coverage()
        var rng = ConvRandom(seed: 37)
        // (spatial, channels, outputs, kernel, stride, group)
        let shapes: [(Int, Int, Int, Int, Int, Int)] = [
            (37, 5, 11, 3, 1, 1), (37, 40, 9, 1, 1, 1), (61, 3, 8, 3, 2, 1), (23, 32, 35, 3, 1, 1),
            (19, 64, 16, 1, 1, 1), (9, 120, 9, 3, 1, 1), (29, 24, 24, 3, 1, 24), (28, 16, 32, 3, 2, 16),
            (28, 24, 24, 7, 1, 24), (14, 20, 20, 7, 1, 20), (29, 16, 16, 5, 2, 16), (14, 24, 24, 5, 1, 24),
        ]
        for (index, (spatial, channels, outputs, kernel, stride, group)) in shapes.enumerated() {
            let x = try Tensor(shape: [1, channels, spatial, spatial], floats: rng.floats(channels * spatial * spatial))
            let wShape = [outputs, channels / group, kernel, kernel]
            let w = try Tensor(shape: wShape, floats: rng.floats(wShape.elementCount))
            let b = try Tensor(shape: [outputs], floats: rng.floats(outputs))
            let pad = kernel / 2
            let c = ConvCase(input: x, weights: w, bias: b,
                             attributes: ConvAttributes(kernelShape: [kernel, kernel], strides: [stride, stride], dilations: [1, 1],
                                                        pads: [pad, pad, pad, pad], group: group,
                                                        activation: index % 2 == 1 ? .relu : nil))
            let winogradShaped = kernel == 3 && stride == 1 && group == 1
            for policy in winogradShaped ? KernelsTestSupport.policies : [.measured] {
                try checkCase(c, policy, threads: 2, "large case \(index)", coverage: &coverage)
            }
        }
        XCTAssertTrue(coverage.paths.isSuperset(of: ["gemm 1x1", "im2col+gemm", "winograd_f2", "winograd_f4", "winograd_f6",
                                                     "dwconv_3x3s1", "dwconv_3x3s2"]), "\(coverage.paths)")
        coverage.checkWrittenBounds()
    }

    /// The step's tolerance is written per algorithm: the GEMM's default,
    /// each Winograd variant's no tighter than the C kernels' measured bound
    /// (fovea_winograd.h) and growing with the tile, F6 looser than the GEMM
    /// of the same convolution, and the direct depthwise tighter.
    func testEachAlgorithmHasItsWrittenTolerance() throws {
        var rng = ConvRandom(seed: 71)
        let c = ConvCase.random(&rng, family: .winograd, spatial: 9)
        let context = try c.context()
        var tolerance: [ConvolutionAlgorithm: Float] = [:]
        for policy in KernelsTestSupport.policies.dropLast() {
            let step = try KernelsBackend(winograd: policy).prepare(context)
            let algorithm = try KernelsTestSupport.expectedAlgorithm(c, policy)
            tolerance[algorithm] = step.tolerance
            if let written = KernelsTestSupport.writtenWinogradBound(algorithm) {
                XCTAssertGreaterThanOrEqual(step.tolerance, written, "\(algorithm) is tighter than the C kernels' bound")
            }
        }
        let gemm = try XCTUnwrap(tolerance[.gemm]), f2 = try XCTUnwrap(tolerance[.winogradF2])
        let f4 = try XCTUnwrap(tolerance[.winogradF4]), f6 = try XCTUnwrap(tolerance[.winogradF6])
        XCTAssertEqual(gemm, 1e-4)
        XCTAssertLessThanOrEqual(gemm, f2)
        XCTAssertLessThanOrEqual(f2, f4)
        XCTAssertLessThanOrEqual(f4, f6)
        XCTAssertGreaterThan(f6, gemm, "a node on Winograd F6 has a looser bound than on the GEMM")
        let depthwise = ConvCase.random(&rng, family: .depthwise)
        XCTAssertLessThan(try KernelsTestSupport.backend.prepare(depthwise.context()).tolerance, gemm)
    }

    /// Named cases whose routing is known: the test fails if a policy or the
    /// shape rules send a convolution to another algorithm.
    /// Small planes (7×7, 13×13, 14×14) with a reduction of at least 128 and
    /// channels that fill 32-lane panels: on AVX-512 these run with pixels as
    /// the tile's rows (`f32_gemm_t8x32_avx512`): 1×1 in place, 3×3 and
    /// strided 1×1 through im2col, a batch of two, a fused activation, against
    /// the reference at the GEMM's tolerance.
    func testSmallPlanesWithPixelRows() throws {
        var coverage = Coverage()
        var rng = ConvRandom(seed: 49)
        // (spatial, channels, outputs, kernel, stride, batch)
        let shapes: [(Int, Int, Int, Int, Int, Int)] = [
            (7, 160, 96, 1, 1, 1), (13, 130, 64, 1, 1, 1), (14, 128, 300, 1, 1, 2), (7, 32, 64, 3, 1, 1),
            (14, 24, 32, 3, 2, 2), (14, 200, 64, 1, 2, 1),
        ]
        for (index, (spatial, channels, outputs, kernel, stride, batch)) in shapes.enumerated() {
            let x = try Tensor(shape: [batch, channels, spatial, spatial], floats: rng.floats(batch * channels * spatial * spatial))
            let wShape = [outputs, channels, kernel, kernel]
            let w = try Tensor(shape: wShape, floats: rng.floats(wShape.elementCount))
            let b = try Tensor(shape: [outputs], floats: rng.floats(outputs))
            let pad = kernel / 2
            let c = ConvCase(input: x, weights: w, bias: b,
                             attributes: ConvAttributes(kernelShape: [kernel, kernel], strides: [stride, stride], dilations: [1, 1],
                                                        pads: [pad, pad, pad, pad], group: 1,
                                                        activation: index % 2 == 0 ? .relu : nil))
            let algorithm = try checkCase(c, .off, threads: 1 + index % 2, "small plane \(index)", coverage: &coverage)
            // The bf16 levels run AVX-512's fp32 kernels.
            if ["avx512", "avx512bf16", "amx"].contains(KernelsBackend.isa) {
                XCTAssertTrue(algorithm.contains("f32_gemm_t8x32_avx512"), "small plane \(index): ran '\(algorithm)'")
            }
        }
        coverage.checkWrittenBounds()
    }

    func testRoutingOfNamedShapes() throws {
        var rng = ConvRandom(seed: 3)
        func make(_ channels: Int, _ outputs: Int, _ kernel: [Int], size: Int = 9, stride: Int = 1, dilation: Int = 1,
                  group: Int = 1, pads: [Int] = [0, 0, 0, 0]) throws -> ConvCase {
            ConvCase(input: try Tensor(shape: [1, channels, size, size], floats: rng.floats(channels * size * size)),
                     weights: try Tensor(shape: [outputs, channels / group] + kernel, floats: rng.floats(outputs * channels / group * kernel[0] * kernel[1])),
                     bias: nil, attributes: ConvAttributes(kernelShape: kernel, strides: [stride, stride], dilations: [dilation, dilation],
                                                           pads: pads, group: group))
        }
        func algorithm(_ c: ConvCase, _ policy: WinogradPolicy) throws -> String {
            try KernelsBackend(winograd: policy).prepare(c.context()).algorithm
        }
        let threeByThree = try make(8, 16, [3, 3], pads: [1, 1, 1, 1])
        XCTAssertTrue(try algorithm(threeByThree, .forced(.winogradF2)).contains("winograd_f2"))
        XCTAssertTrue(try algorithm(threeByThree, .forced(.winogradF4)).contains("winograd_f4"))
        XCTAssertTrue(try algorithm(threeByThree, .forced(.winogradF6)).contains("winograd_f6"))
        XCTAssertTrue(try algorithm(threeByThree, .off).hasPrefix("im2col+gemm 3x3"))
        // Forcing Winograd leaves what it cannot run on the GEMM or the depthwise kernels.
        for policy in KernelsTestSupport.policies {
            XCTAssertTrue(try algorithm(make(8, 16, [3, 3], stride: 2), policy).hasPrefix("im2col+gemm 3x3"), "\(policy) stride 2")
            XCTAssertTrue(try algorithm(make(8, 16, [3, 3], dilation: 2), policy).hasPrefix("im2col+gemm 3x3"), "\(policy) dilation 2")
            XCTAssertTrue(try algorithm(make(8, 16, [3, 3], group: 2), policy).hasPrefix("im2col+gemm 3x3"), "\(policy) 2 groups")
            XCTAssertTrue(try algorithm(make(8, 16, [3, 1], pads: [1, 0, 1, 0]), policy).hasPrefix("im2col+gemm 3x1"), "\(policy) 3x1")
            XCTAssertTrue(try algorithm(make(8, 16, [1, 1]), policy).hasPrefix("gemm 1x1"), "\(policy) 1x1")
            XCTAssertTrue(try algorithm(make(8, 8, [3, 3], group: 8), policy).hasPrefix("dwconv_3x3s1"), "\(policy) depthwise")
            XCTAssertTrue(try algorithm(make(8, 24, [3, 3], stride: 2, group: 8), policy).hasPrefix("dwconv_3x3s2"),
                          "\(policy) depthwise, channel multiplier 3")
            // 5×5 and 7×7 have their own stride-1 and stride-2 kernels on AVX2 and AVX-512, k×k on the scalar path.
            let own = KernelsBackend.isa != "scalar"
            XCTAssertTrue(try algorithm(make(8, 8, [5, 5], group: 8, pads: [2, 2, 2, 2]), policy)
                .hasPrefix(own ? "dwconv_5x5s1" : "dwconv_kxk"), "\(policy) depthwise 5x5")
            XCTAssertTrue(try algorithm(make(8, 8, [7, 7], group: 8, pads: [3, 3, 3, 3]), policy)
                .hasPrefix(own ? "dwconv_7x7s1" : "dwconv_kxk"), "\(policy) depthwise 7x7")
            XCTAssertTrue(try algorithm(make(8, 8, [5, 5], stride: 2, group: 8), policy)
                .hasPrefix(own ? "dwconv_5x5s2" : "dwconv_kxk"), "\(policy) depthwise 5x5 stride 2")
            XCTAssertTrue(try algorithm(make(8, 8, [5, 3], group: 8), policy).hasPrefix("dwconv_kxk"), "\(policy) depthwise 5x3")
        }
        // A 1x1 convolution with pads is an im2col of a 1x1 window, not a GEMM on the input planes.
        XCTAssertTrue(try algorithm(make(8, 16, [1, 1], pads: [1, 1, 1, 1]), .off).hasPrefix("im2col+gemm 1x1"))
        XCTAssertTrue(try algorithm(make(8, 16, [1, 1], stride: 2), .off).hasPrefix("im2col+gemm 1x1"))
        // Pads only at the end make the output larger than the input: still an im2col (the C kernels' rule).
        XCTAssertTrue(try algorithm(make(8, 16, [1, 1], pads: [0, 0, 1, 2]), .off).hasPrefix("im2col+gemm 1x1"))
        // One input channel, one group: an ordinary convolution, not depthwise.
        XCTAssertTrue(try algorithm(make(1, 4, [3, 3], group: 1), .off).hasPrefix("im2col+gemm 3x3"))
        // The measured table (machine-specific, so no fixed answers here): a
        // measured shape gets its own row's choice, and `.measured` routes by it.
        for row in ConvolutionAlgorithmTable.measured.prefix(40) {
            XCTAssertEqual(ConvolutionAlgorithmTable.fastest(channels: row.channels, outputChannels: row.outputs,
                                                             height: row.size, width: row.size), row.best)
        }
        for (channels, outputs, size) in [(64, 16, 56), (16, 512, 7), (48, 192, 13)] {
            let expected = ConvolutionAlgorithmTable.fastest(channels: channels, outputChannels: outputs, height: size, width: size)
            let chosen = try algorithm(make(channels, outputs, [3, 3], size: size, pads: [1, 1, 1, 1]), .measured)
            let name = expected.winogradTile.map { "winograd_f\($0)x\($0)" } ?? "im2col+gemm 3x3"
            XCTAssertTrue(chosen.hasPrefix(name), "\(channels)->\(outputs) @\(size): table says \(expected), step runs \(chosen)")
        }
    }

    /// The measured policy keeps F4 and F6 off planes above 64×64 (a
    /// classifier's stem, whose error every later layer amplifies: on
    /// Inception-v3 they moved the logits 2.8e-4 from onnxruntime, the bar
    /// being 1e-4), where the table picks them, and leaves them elsewhere.
    func testLargePlanesTakeTheAccurateWinogradTile() throws {
        var rng = ConvRandom(seed: 5)
        func algorithm(_ channels: Int, _ outputs: Int, size: Int) throws -> String {
            let c = ConvCase(input: try Tensor(shape: [1, channels, size, size], floats: rng.floats(channels * size * size)),
                             weights: try Tensor(shape: [outputs, channels, 3, 3], floats: rng.floats(outputs * channels * 9)),
                             bias: nil, attributes: ConvAttributes(kernelShape: [3, 3], strides: [1, 1], dilations: [1, 1],
                                                                   pads: [1, 1, 1, 1], group: 1))
            return try KernelsBackend(winograd: .measured).prepare(c.context()).algorithm
        }
        // Inception-v3's stem shapes: the table picks F4 or F6 for them, the policy F2.
        for (channels, outputs, size) in [(32, 32, 147), (32, 64, 147), (80, 192, 71)] {
            let table = ConvolutionAlgorithmTable.fastest(channels: channels, outputChannels: outputs, height: size, width: size)
            XCTAssertTrue(table == .winogradF4 || table == .winogradF6, "the table picks \(table) for \(channels)->\(outputs) @\(size)")
            let chosen = try algorithm(channels, outputs, size: size)
            XCTAssertTrue(chosen.hasPrefix("winograd_f2x2"), "\(channels)->\(outputs) @\(size) runs \(chosen)")
        }
        // At 64×64 and below the table's choice stands (ResNet-50's 56×56 64->64 among them).
        for (channels, outputs, size) in [(64, 64, 56), (32, 64, 64), (128, 128, 28)] {
            let table = ConvolutionAlgorithmTable.fastest(channels: channels, outputChannels: outputs, height: size, width: size)
            let chosen = try algorithm(channels, outputs, size: size)
            XCTAssertTrue(chosen.hasPrefix(table.winogradTile.map { "winograd_f\($0)x\($0)" } ?? "im2col+gemm 3x3"),
                          "\(channels)->\(outputs) @\(size): table says \(table), step runs \(chosen)")
        }
        // Forced variants are not capped: --winograd f6 still means F6.
        let c = ConvCase(input: try Tensor(shape: [1, 8, 70, 70], floats: rng.floats(8 * 70 * 70)),
                         weights: try Tensor(shape: [8, 8, 3, 3], floats: rng.floats(8 * 8 * 9)), bias: nil,
                         attributes: ConvAttributes(kernelShape: [3, 3], strides: [1, 1], dilations: [1, 1], pads: [1, 1, 1, 1], group: 1))
        XCTAssertTrue(try KernelsBackend(winograd: .forced(.winogradF6)).prepare(c.context()).algorithm.hasPrefix("winograd_f6x6"))
    }

    /// Each algorithm gives the same bits on 1 and 2 threads (the C kernels
    /// split output tiles, column blocks, channel panels or row bands among
    /// threads, but every output is summed in the same order), on shapes
    /// large enough for the kernels to go parallel.
    func testOneAndTwoThreadsGiveIdenticalResults() throws {
        var rng = ConvRandom(seed: 2)
        // (batch, channels, outputs, spatial, kernel, stride, group, policy)
        let cases: [(Int, Int, Int, Int, Int, Int, Int, WinogradPolicy)] = [
            (1, 40, 101, 13, 1, 1, 1, .off),                    // gemm 1x1, output channels split
            (2, 12, 45, 13, 3, 1, 1, .off),                     // im2col 3x3
            (1, 16, 24, 20, 3, 1, 1, .forced(.winogradF2)),
            (1, 16, 24, 20, 3, 1, 1, .forced(.winogradF4)),
            (2, 16, 24, 20, 3, 1, 1, .forced(.winogradF6)),
            (1, 2, 2, 64, 3, 1, 2, .off),                        // depthwise 3x3s1, row bands
            (1, 3, 6, 64, 3, 2, 3, .off),                        // depthwise 3x3s2, multiplier 2
            (2, 8, 8, 40, 5, 1, 8, .off),                        // depthwise kxk
        ]
        for (batch, channels, outputs, spatial, kernel, stride, group, policy) in cases {
            let x = try Tensor(shape: [batch, channels, spatial, spatial], floats: rng.floats(batch * channels * spatial * spatial))
            let wShape = [outputs, channels / group, kernel, kernel]
            let w = try Tensor(shape: wShape, floats: rng.floats(wShape.elementCount))
            let b = try Tensor(shape: [outputs], floats: rng.floats(outputs))
            let pad = kernel / 2
            let op = Op.conv(ConvAttributes(kernelShape: [kernel, kernel], strides: [stride, stride], dilations: [1, 1],
                                            pads: [pad, pad, pad, pad], group: group, activation: .relu))
            let backend = KernelsBackend(winograd: policy)
            let (step, _) = try KernelsTestSupport.prepare(op, [x, w, b], constants: [1, 2], backend: backend)
            try KernelsTestSupport.checkThreadIndependence(op, [x, w, b], constants: [1, 2], backend: backend,
                                                           "\(step.algorithm) X \(x.shape) W \(w.shape)")
        }
    }

    /// The output of one image written as a channel slice of a wider tensor
    /// (an elided Concat), for every algorithm, leaves the gaps alone: run by
    /// ``LayerCheck`` for batch > 1; here with 3 threads and a workspace
    /// sized for exactly that.
    func testStridedOutputOnEveryAlgorithm() throws {
        var rng = ConvRandom(seed: 9)
        for (kernel, group, policy) in [(1, 1, WinogradPolicy.off), (3, 1, .off), (3, 1, .forced(.winogradF2)),
                                        (3, 1, .forced(.winogradF4)), (3, 1, .forced(.winogradF6)), (3, 6, .off)] {
            let x = try Tensor(shape: [2, 6, 17, 17], floats: rng.floats(2 * 6 * 289))
            let w = try Tensor(shape: [12, 6 / group, kernel, kernel], floats: rng.floats(12 * 6 / group * kernel * kernel))
            let pad = kernel / 2
            let c = ConvCase(input: x, weights: w, bias: nil,
                             attributes: ConvAttributes(kernelShape: [kernel, kernel], strides: [1, 1], dilations: [1, 1],
                                                        pads: [pad, pad, pad, pad], group: group))
            let context = try c.context()
            let step = try KernelsBackend(winograd: policy).prepare(context)
            XCTAssertTrue(step.writesStridedOutput, step.algorithm)
            let contiguous = try step.run(c.inputs, planned: context, context: RunContext(threads: 3))[0]
            let strided = try LayerCheck.runByHand(step, c.inputs, planned: context, threads: 3, outputBatchStride: 12 * 289 + 40)
            LayerCheck.assertSameBits(strided, contiguous, "\(step.algorithm): strided, 3 threads")
            LayerCheck.compareRelative([contiguous], [try c.reference()], bound: step.tolerance, step.algorithm)
        }
    }

    /// Batch 8 on the small planes ResNet-50 and MobileNetV2 end with (7×7,
    /// 14×14, 1×1 and ragged sizes): the GEMM runs one product over all
    /// images' pixels, so column panels straddle images; Winograd and
    /// depthwise split tiles and planes of the whole batch. Each against the
    /// reference at its step's tolerance (LayerCheck also writes a strided
    /// output), on 1 and 2 threads.
    func testBatchOfSmallPlanesOnEveryAlgorithm() throws {
        var rng = ConvRandom(seed: 18)
        // (batch, channels, outputs, height, width, kernel, stride, group, policy, expected algorithm prefix)
        let cases: [(Int, Int, Int, Int, Int, Int, Int, Int, WinogradPolicy, String)] = [
            (8, 40, 37, 7, 7, 1, 1, 1, .off, "gemm 1x1"),
            (8, 530, 19, 7, 7, 1, 1, 1, .off, "gemm 1x1"),                // K > 512: k-blocks
            (8, 300, 70, 1, 1, 1, 1, 1, .off, "gemm 1x1"),                // fully connected
            (5, 33, 21, 13, 13, 1, 2, 1, .off, "im2col+gemm 1x1"),        // stride-2 shortcut
            (8, 24, 19, 7, 7, 3, 1, 1, .off, "im2col+gemm 3x3"),
            (3, 16, 33, 14, 9, 3, 1, 1, .off, "im2col+gemm 3x3"),
            (8, 6, 10, 11, 11, 3, 2, 2, .off, "im2col+gemm 3x3"),         // grouped, strided
            (8, 24, 19, 7, 7, 3, 1, 1, .forced(.winogradF2), "winograd_f2"),
            (8, 24, 19, 7, 7, 3, 1, 1, .forced(.winogradF4), "winograd_f4"),
            (8, 24, 19, 7, 7, 3, 1, 1, .forced(.winogradF6), "winograd_f6"),
            (8, 12, 12, 7, 7, 3, 1, 12, .off, "dwconv_3x3s1"),
            (8, 12, 12, 14, 14, 3, 2, 12, .off, "dwconv_3x3s2"),
        ]
        for (batch, channels, outputs, height, width, kernel, stride, group, policy, prefix) in cases {
            let x = try Tensor(shape: [batch, channels, height, width], floats: rng.floats(batch * channels * height * width))
            let wShape = [outputs, channels / group, kernel, kernel]
            let w = try Tensor(shape: wShape, floats: rng.floats(wShape.elementCount))
            let b = try Tensor(shape: [outputs], floats: rng.floats(outputs))
            let pad = kernel / 2
            let c = ConvCase(input: x, weights: w, bias: b,
                             attributes: ConvAttributes(kernelShape: [kernel, kernel], strides: [stride, stride], dilations: [1, 1],
                                                        pads: [pad, pad, pad, pad], group: group, activation: .relu))
            for threads in [1, 2] {
                let algorithm = try LayerCheck.check(KernelsBackend(winograd: policy), c.op, c.presentInputs, constants: c.constantIndices,
                                                     tolerance: nil, threads: threads, "batch \(batch) \(threads) threads: \(c)")
                XCTAssertTrue(algorithm.hasPrefix(prefix), "\(c): ran '\(algorithm)', expected '\(prefix)...'")
            }
        }
    }
}
