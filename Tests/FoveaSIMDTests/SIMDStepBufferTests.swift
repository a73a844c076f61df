import XCTest
import FoveaCore
import FoveaTestSupport
@testable import FoveaPortableBackend

/// The executor's side of the step interface: strided output slices, in-place
/// runs and exactly sized workspaces must give the same bits as a plain run.
final class SIMDStepBufferTests: XCTestCase {
    /// A convolution case with seeded values.
    func convCase(batch: Int, channels: Int, outputs: Int, size: Int, kernel: Int, group: Int = 1, stride: Int = 1,
                  pad: Int = 0, activation: FusedActivation? = nil, constantBias: Bool = true, seed: UInt64) throws -> ConvCase {
        var rng = ConvRandom(seed: seed)
        let x = try Tensor(shape: [batch, channels, size, size], floats: rng.floats(batch * channels * size * size))
        let wShape = [outputs, channels / group, kernel, kernel]
        let w = try Tensor(shape: wShape, floats: rng.floats(wShape.elementCount))
        let b = try Tensor(shape: [outputs], floats: rng.floats(outputs))
        return ConvCase(input: x, weights: w, bias: b,
                        attributes: ConvAttributes(kernelShape: [kernel, kernel], strides: [stride, stride], dilations: [1, 1],
                                                   pads: [pad, pad, pad, pad], group: group, activation: activation),
                        biasIsConstant: constantBias)
    }

    /// Output 0 written as a strided slice (two paddings, several thread
    /// counts) equals the contiguous output bit for bit, and the memory
    /// between the images is left alone.
    func checkStrided(_ step: any PreparedStep, _ inputs: [Tensor?], _ planned: NodeContext, threads: [Int] = [1, 2],
                      _ message: String, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertTrue(step.writesStridedOutput, message, file: file, line: line)
        let imageCount = planned.outputTypes[0].shape.dropFirst().reduce(1, *)
        for t in threads {
            let contiguous = try step.run(inputs, planned: planned, context: RunContext(threads: t))[0]
            for padding in [5, imageCount + 32] {
                let stride = imageCount + padding
                let runner = try step.run(inputs, planned: planned, context: RunContext(threads: t), outputBatchStrides: [stride])[0]
                LayerCheck.assertSameBits(runner, contiguous,
                               "\(message) [\(step.algorithm)] stride \(stride), \(t) thread(s)", file: file, line: line)
                let byHand = try LayerCheck.runByHand(step, inputs, planned: planned, threads: t, outputBatchStride: stride,
                                                           file: file, line: line)
                LayerCheck.assertSameBits(byHand, contiguous,
                               "\(message) [\(step.algorithm)] by hand, stride \(stride), \(t) thread(s)", file: file, line: line)
            }
        }
    }

    // MARK: (a) Strided outputs

    func testConvolutionWritesStridedSlices() throws {
        for batch in [2, 3] {
            let cases: [(String, ConvCase)] = [
                ("gemm 1x1", try convCase(batch: batch, channels: 16, outputs: 24, size: 9, kernel: 1, seed: 1)),
                // 13x13 1x1 with 5 threads also splits the output channels (runSplit).
                ("gemm 1x1", try convCase(batch: batch, channels: 40, outputs: 101, size: 13, kernel: 1, activation: .relu, seed: 2)),
                ("gemm 1x1", try convCase(batch: batch, channels: 8, outputs: 12, size: 7, kernel: 1, constantBias: false, seed: 3)),
                ("im2col+gemm 3x3", try convCase(batch: batch, channels: 5, outputs: 7, size: 11, kernel: 3, pad: 1, activation: .relu, seed: 4)),
                ("im2col+gemm 3x3", try convCase(batch: batch, channels: 6, outputs: 9, size: 12, kernel: 3, group: 3, stride: 2, pad: 1,
                                                 constantBias: false, seed: 5)),
                ("depthwise 3x3", try convCase(batch: batch, channels: 6, outputs: 6, size: 10, kernel: 3, group: 6, pad: 1, seed: 6)),
                ("depthwise 3x3", try convCase(batch: batch, channels: 4, outputs: 4, size: 9, kernel: 3, group: 4, stride: 2,
                                               constantBias: false, seed: 7)),
            ]
            for (path, c) in cases {
                let planned = try c.context()
                let step = try SIMDBackend().prepare(planned)
                XCTAssertTrue(step.algorithm.hasPrefix(path), "\(step.algorithm) for \(c)")
                try checkStrided(step, c.inputs, planned, threads: [1, 2, 5], "\(c)")
            }
        }
    }

    func testPoolingWritesStridedSlices() throws {
        var g = SeededGenerator(seed: 71)
        let padded = PoolAttributes(kernelShape: [3, 3], strides: [2, 2], dilations: [], pads: [1, 1, 1, 1])
        var includePad = padded
        includePad.countIncludePad = true
        let direct = PoolAttributes(kernelShape: [3, 3], strides: [2, 2], dilations: [], pads: [0, 0, 0, 0], ceilMode: true)
        for batch in [2, 3] {
            let x = LayerCheck.randomTensorWithSpecials([batch, 5, 13, 13], using: &g)
            let ops: [(Op, String)] = [(.maxPool(padded), "maxpool 3x3/2"), (.averagePool(includePad), "avgpool 3x3/2"),
                                       (.maxPool(direct), "maxpool 3x3/2 direct"), (.globalAveragePool, "global average"),
                                       (.globalMaxPool, "global max")]
            for (op, algorithm) in ops {
                let (step, planned) = try SIMDTestSupport.prepare(op, [x])
                XCTAssertEqual(step.algorithm, algorithm)
                try checkStrided(step, [x], planned, "\(op) batch \(batch)")
            }
        }
    }

    func testActivationAndBatchNormalizationWriteStridedSlices() throws {
        var g = SeededGenerator(seed: 72)
        for batch in [2, 3] {
            let x = LayerCheck.randomTensorWithSpecials([batch, 3, 41, 37], using: &g)
            for op in [Op.relu, .sigmoid, .clip(min: -1, max: 2)] {
                let (step, planned) = try SIMDTestSupport.prepare(op, [x])
                try checkStrided(step, [x], planned, "\(op) batch \(batch)")
            }
            let parameters = (0..<4).map { _ in LayerCheck.randomTensor([3], in: 0.5...2, using: &g) }
            for constants in [Set<Int>(), [1, 2, 3, 4]] {
                let (step, planned) = try SIMDTestSupport.prepare(.batchNormalization(epsilon: 1e-5), [x] + parameters, constants: constants)
                try checkStrided(step, [x] + parameters, planned, "batch norm, constants \(constants.sorted())")
            }
        }
    }

    func testStepsThatNeedContiguousOutputsSaySo() throws {
        let x = Tensor(shape: [2, 3, 4, 4], repeating: 1)
        XCTAssertFalse(try SIMDTestSupport.prepare(.add, [x, x]).0.writesStridedOutput)
        XCTAssertFalse(try SIMDTestSupport.prepare(.concat(axis: 1), [x, x]).0.writesStridedOutput)
        XCTAssertFalse(try SIMDTestSupport.prepare(.softmax(SoftmaxAttributes(axis: 1, coercedTo2D: false)), [x]).0.writesStridedOutput)
        XCTAssertFalse(try SIMDTestSupport.prepare(.matMul, [x, x]).0.writesStridedOutput)
    }

    // MARK: (b) In place

    /// Output 0 on input `index`'s memory gives the out-of-place bits.
    func checkInPlace(_ op: Op, _ inputs: [Tensor], constants: Set<Int> = [], expected index: Int?,
                      _ message: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let (step, planned) = try SIMDTestSupport.prepare(op, inputs, constants: constants)
        XCTAssertEqual(step.overwritableInput, index, "\(message) [\(step.algorithm)]", file: file, line: line)
        guard let index = step.overwritableInput else { return }
        XCTAssertEqual(inputs[index].shape, planned.outputTypes[0].shape, message, file: file, line: line)
        for threads in [1, 2] {
            let outOfPlace = try step.run(inputs, planned: planned, context: RunContext(threads: threads))[0]
            let inPlace = try LayerCheck.runByHand(step, inputs, planned: planned, threads: threads, aliasInput: index,
                                                        file: file, line: line)
            LayerCheck.assertSameBits(inPlace, outOfPlace,
                           "\(message) [\(step.algorithm)] in place, \(threads) thread(s)", file: file, line: line)
        }
    }

    func testActivationsRunInPlace() throws {
        var g = SeededGenerator(seed: 81)
        for shape in [[7], [3, 37], [2, 3, 37, 37]] {
            let x = LayerCheck.randomTensorWithSpecials(shape, using: &g)
            for op in [Op.relu, .leakyRelu(alpha: 0.1), .clip(min: 0, max: 6), .sigmoid, .hardSigmoid(alpha: 0.2, beta: 0.5), .hardSwish] {
                try checkInPlace(op, [x], expected: 0, "\(op) \(shape)")
            }
        }
    }

    func testBatchNormalizationRunsInPlace() throws {
        var g = SeededGenerator(seed: 82)
        for shape in [[1, 5], [2, 13, 37, 37], [3, 3, 17]] {
            let x = LayerCheck.randomTensorWithSpecials(shape, using: &g)
            let parameters = (0..<4).map { _ in LayerCheck.randomTensor([shape[1]], in: 0.5...2, using: &g) }
            for constants in [Set<Int>(), [1, 2, 3, 4]] {
                try checkInPlace(.batchNormalization(epsilon: 1e-5), [x] + parameters, constants: constants, expected: 0,
                                 "batch norm \(shape) constants \(constants.sorted())")
            }
        }
    }

    func testBinaryOpsRunInPlaceOverTheInputOfTheOutputShape() throws {
        var g = SeededGenerator(seed: 83)
        let big = LayerCheck.randomTensorWithSpecials([3, 13, 37, 37], using: &g)
        let other = LayerCheck.randomTensorWithSpecials([3, 13, 37, 37], using: &g)
        let perChannel = LayerCheck.randomTensor([13, 1, 1], in: 0.5...2, using: &g)
        let scalar = LayerCheck.randomTensor([], using: &g)
        let odd = LayerCheck.randomTensorWithSpecials([5, 37], using: &g)
        let row = LayerCheck.randomTensorWithSpecials([37], using: &g)
        try checkInPlace(.add, [big, other], expected: 0, "same-shape add")
        try checkInPlace(.mul, [big, perChannel], expected: 0, "per-channel mul")
        try checkInPlace(.div, [perChannel, big], expected: 1, "per-channel div, output over B")
        try checkInPlace(.sub, [scalar, odd], expected: 1, "scalar minus")
        try checkInPlace(.sub, [odd, row], expected: 0, "row broadcast")
        try checkInPlace(.sub, [row, odd], expected: 1, "row broadcast, output over B")
        try checkInPlace(.prelu, [big, perChannel], expected: 0, "PRelu")
        try checkInPlace(.sum, [big, other], expected: 0, "Sum of two")
        try checkInPlace(.sum, [big], expected: 0, "Sum of one")
        // Neither input has the output's shape; and Sum of three may read an overwritten input.
        try checkInPlace(.add, [LayerCheck.randomTensor([7, 1], using: &g), LayerCheck.randomTensor([1, 9], using: &g)],
                         expected: nil, "outer broadcast")
        try checkInPlace(.sum, [big, other, big], expected: nil, "Sum of three")
    }

    /// `x + x` with the output on x as well: both inputs and the output share memory.
    func testAddOfATensorToItselfInPlace() throws {
        var g = SeededGenerator(seed: 84)
        let x = LayerCheck.randomTensorWithSpecials([3, 5, 37], using: &g)
        let (step, planned) = try SIMDTestSupport.prepare(.add, [x, x])
        let expected = try step.run([x, x], planned: planned, context: RunContext(threads: 1))[0]
        let base = UnsafeMutableRawPointer.allocate(byteCount: x.count * 4, alignment: 64)
        defer { base.deallocate() }
        let view = TensorView(base: base, dataType: .float32, shape: x.shape)
        view.copy(from: x)
        try step.run(StepBuffers(inputs: [view, view], outputs: [view], workspace: nil), context: RunContext(threads: 1))
        LayerCheck.assertSameBits(view.copyToTensor(), expected, "x + x in place")
    }

    // MARK: (c) Workspace

    /// Runs with exactly `workspaceBytes(threads: 1)` at 1 thread and exactly
    /// `workspaceBytes(threads: n)` at every thread count up to n.
    func checkWorkspace(_ step: any PreparedStep, _ inputs: [Tensor?], _ planned: NodeContext, maxThreads: Int = 2,
                        expectsWorkspace: Bool = true, _ message: String, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(step.workspaceBytes(threads: 1) > 0, expectsWorkspace, "\(message) [\(step.algorithm)]", file: file, line: line)
        for planThreads in Set([1, 2, maxThreads]).sorted() {
            for threads in 1...planThreads {
                let expected = try step.run(inputs, planned: planned, context: RunContext(threads: threads))[0]
                let result = try LayerCheck.runByHand(step, inputs, planned: planned, threads: threads,
                                                           workspaceThreads: planThreads, file: file, line: line)
                LayerCheck.assertSameBits(result, expected,
                               "\(message) [\(step.algorithm)] workspace for \(planThreads), run on \(threads) thread(s)",
                               file: file, line: line)
            }
        }
    }

    func testConvolutionRunsInItsExactWorkspace() throws {
        let cases = [
            try convCase(batch: 1, channels: 5, outputs: 7, size: 37, kernel: 3, pad: 1, seed: 11),
            try convCase(batch: 1, channels: 5, outputs: 7, size: 19, kernel: 3, pad: 1, constantBias: false, seed: 12),
            try convCase(batch: 1, channels: 120, outputs: 9, size: 9, kernel: 3, pad: 1, seed: 13), // two reduction passes
            try convCase(batch: 1, channels: 40, outputs: 101, size: 13, kernel: 1, constantBias: false, seed: 14), // runSplit at 5 threads
            try convCase(batch: 2, channels: 6, outputs: 10, size: 12, kernel: 1, group: 2, seed: 15),
        ]
        for c in cases {
            let planned = try c.context()
            let step = try SIMDBackend().prepare(planned)
            try checkWorkspace(step, c.inputs, planned, maxThreads: 5, "\(c)")
        }
        let depthwise = try convCase(batch: 2, channels: 6, outputs: 6, size: 10, kernel: 3, group: 6, pad: 1, constantBias: false, seed: 16)
        let planned = try depthwise.context()
        try checkWorkspace(try SIMDBackend().prepare(planned), depthwise.inputs, planned, expectsWorkspace: false, "depthwise")
    }

    func testMatrixRunsInItsExactWorkspace() throws {
        var rng = ConvRandom(seed: 91)
        func tensor(_ shape: [Int]) throws -> Tensor { try Tensor(shape: shape, floats: rng.floats(shape.elementCount)) }
        let gemm = Op.gemm(GemmAttributes(alpha: 0.5, beta: 0.25, transA: false, transB: true))
        let cases: [(Op, [Tensor], Set<Int>)] = [
            (gemm, [try tensor([9, 300]), try tensor([70, 300]), try tensor([70])], []),
            (gemm, [try tensor([9, 300]), try tensor([70, 300]), try tensor([9, 1])], [1, 2]),
            (.matMul, [try tensor([2, 3, 17, 29]), try tensor([2, 3, 29, 65])], []),
            (.matMul, [try tensor([33, 1100]), try tensor([1100, 40])], [1]),
        ]
        for (op, inputs, constants) in cases {
            let (step, planned) = try SIMDTestSupport.prepare(op, inputs, constants: constants)
            try checkWorkspace(step, inputs, planned, "\(op) \(inputs.map(\.shape)) constants \(constants.sorted())")
        }
    }

    func testPoolingNormalizationAndSumRunInTheirExactWorkspace() throws {
        var g = SeededGenerator(seed: 92)
        let x = LayerCheck.randomTensorWithSpecials([2, 13, 37, 37], using: &g)
        let padded = PoolAttributes(kernelShape: [3, 2], strides: [2, 3], dilations: [1, 2], pads: [1, 0, 2, 1], ceilMode: true)
        let direct = PoolAttributes(kernelShape: [3, 3], strides: [2, 2], dilations: [], pads: [0, 0, 0, 0])
        for op in [Op.maxPool(padded), .averagePool(padded), .maxPool(direct)] {
            let (step, planned) = try SIMDTestSupport.prepare(op, [x])
            try checkWorkspace(step, [x], planned, "\(op)")
        }
        let parameters = (0..<4).map { _ in LayerCheck.randomTensor([13], in: 0.5...2, using: &g) }
        let (normalization, planned) = try SIMDTestSupport.prepare(.batchNormalization(epsilon: 1e-3), [x] + parameters)
        try checkWorkspace(normalization, [x] + parameters, planned, "run-time batch norm")
        let (folded, foldedPlanned) = try SIMDTestSupport.prepare(.batchNormalization(epsilon: 1e-3), [x] + parameters, constants: [1, 2, 3, 4])
        try checkWorkspace(folded, [x] + parameters, foldedPlanned, expectsWorkspace: false, "folded batch norm")
        // Partial sums smaller than the output live in the workspace: one, then two stages of them.
        for shapes in [[[5], [5], [3, 5]], [[5], [3, 1], [2, 1, 1], [4, 1, 1, 1]], [[3, 5], [3, 5]]] {
            let inputs = shapes.map { LayerCheck.randomTensor($0, using: &g) }
            let (sum, sumPlanned) = try SIMDTestSupport.prepare(.sum, inputs)
            try checkWorkspace(sum, inputs, sumPlanned, expectsWorkspace: shapes.count > 2, "Sum of \(shapes)")
            try SIMDTestSupport.check(.sum, inputs, tolerance: .exact, "Sum of \(shapes)")
        }
    }

    // MARK: Other step contracts

    /// View operators are normally elided by the planner; run, they copy.
    func testReshapeCopiesUnlessTheViewsShareMemory() throws {
        var g = SeededGenerator(seed: 93)
        let x = LayerCheck.randomTensorWithSpecials([2, 3, 4, 5], using: &g)
        let (step, planned) = try SIMDTestSupport.prepare(.flatten(axis: 1), [x])
        XCTAssertEqual(step.algorithm, "view")
        let copied = try step.run([x], planned: planned, context: RunContext(threads: 1))[0]
        LayerCheck.assertSameBits(copied, try x.reshaped([2, 60]), "Flatten onto separate memory")
        let base = UnsafeMutableRawPointer.allocate(byteCount: x.count * 4, alignment: 64)
        defer { base.deallocate() }
        let input = TensorView(base: base, dataType: .float32, shape: x.shape)
        input.copy(from: x)
        try step.run(StepBuffers(inputs: [input], outputs: [TensorView(base: base, dataType: .float32, shape: [2, 60])], workspace: nil), context: RunContext(threads: 1))
        LayerCheck.assertSameBits(input.copyToTensor(), x, "Flatten onto the same memory")
    }

    func testAMissingInputViewThrowsATypedError() throws {
        let x = Tensor(shape: [1, 2, 5, 5], repeating: 1)
        let output = UnsafeMutableRawPointer.allocate(byteCount: 256, alignment: 64)
        defer { output.deallocate() }
        for op in [Op.relu, .maxPool(PoolAttributes(kernelShape: [2, 2], strides: [], dilations: [], pads: [])), .softmax(SoftmaxAttributes(axis: 1, coercedTo2D: false))] {
            let (step, planned) = try SIMDTestSupport.prepare(op, [x])
            let view = TensorView(base: output, dataType: .float32, shape: planned.outputTypes[0].shape)
            let workspace = UnsafeMutableRawPointer.allocate(byteCount: max(64, step.workspaceBytes(threads: 1)), alignment: 64)
            defer { workspace.deallocate() }
            XCTAssertThrowsError(try step.run(StepBuffers(inputs: [nil], outputs: [view], workspace: workspace), context: RunContext(threads: 1))) { error in
                XCTAssertEqual((error as? FoveaError)?.kind, .invalidArgument, "\(op)")
            }
        }
    }
}
