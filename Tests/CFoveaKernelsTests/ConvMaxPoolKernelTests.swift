import CFoveaKernels
import FoveaCore
import FoveaKernelsBackend
import XCTest

/// `fovea_conv2d_maxpool_f32` (a convolution and the max pooling after it as
/// one kernel, the stem's rows in a rolling buffer) against FoveaCore's
/// reference backend running Conv (+ReLU) then MaxPool, on random shapes with
/// odd sizes, pads on either side, strides and dilations, every ISA this CPU
/// runs, 1 to 3 threads. Tolerance: the convolution sums in another order
/// than the reference, so 1e-5 × (1 + reduction length) relative to the data's
/// scale (inputs and weights in [-1, 1]); the pooling itself is exact.
final class ConvMaxPoolKernelTests: XCTestCase {
    override func tearDown() {
        fovea_kernels_set_isa("auto")
        super.tearDown()
    }

    private struct Case {
        var inputShape: [Int]
        var outputChannels: Int
        var conv: ConvAttributes
        var pool: PoolAttributes
    }

    /// A random pair whose windows fit; `wide`: many channels on larger planes, so a run takes several bands.
    private func randomCase(_ rng: inout SeededGenerator, wide: Bool) -> Case {
        while true {
            let inputShape = [Int.random(in: 1...2, using: &rng), Int.random(in: 1...4, using: &rng),
                              Int.random(in: 3...(wide ? 60 : 23), using: &rng),
                              Int.random(in: (wide ? 30 : 3)...(wide ? 60 : 23), using: &rng)]
            let kernel = [Int.random(in: 1...3, using: &rng), Int.random(in: 1...3, using: &rng)]
            let conv = ConvAttributes(
                kernelShape: kernel,
                strides: [Int.random(in: 1...2, using: &rng), Int.random(in: 1...2, using: &rng)],
                dilations: [Int.random(in: 1...2, using: &rng), 1],
                pads: (0..<4).map { _ in Int.random(in: 0...2, using: &rng) },
                activation: Bool.random(using: &rng) ? .relu : nil)
            let poolKernel = Int.random(in: 1...3, using: &rng)
            let pool = PoolAttributes(
                kernelShape: [poolKernel, poolKernel],
                strides: [Int.random(in: 1...3, using: &rng), Int.random(in: 1...3, using: &rng)],
                dilations: [1, 1], pads: (0..<4).map { _ in Int.random(in: 0..<poolKernel, using: &rng) })
            let outputChannels = wide ? Int.random(in: 100...160, using: &rng) : Int.random(in: 1...24, using: &rng)
            guard let convGeometry = try? SpatialGeometry(inputSize: Array(inputShape[2...]), convolution: conv),
                  (try? SpatialGeometry(inputSize: convGeometry.outputSize, pooling: pool)) != nil else { continue }
            return Case(inputShape: inputShape, outputChannels: outputChannels, conv: conv, pool: pool)
        }
    }

    /// x -> Conv(w, b) -> MaxPool -> y on the reference backend.
    private func reference(_ c: Case, x: Tensor, w: Tensor, b: Tensor) throws -> Tensor {
        let graph = Graph(
            name: "conv then max pooling",
            inputs: [ValueInfo(name: "x", dataType: .float32, dimensions: c.inputShape.map { .known($0) })],
            outputs: [ValueInfo(name: "y", dataType: .float32, dimensions: nil)],
            nodes: [Node(name: "conv", op: .conv(c.conv), inputs: ["x", "w", "b"], outputs: ["c"]),
                    Node(name: "pool", op: .maxPool(c.pool), inputs: ["c"], outputs: ["y"])],
            initializers: ["w": w, "b": b])
        guard let y = try ExecutionPlan(graph: graph).run(["x": x])["y"] else {
            throw FoveaError(.invalidModel, "the reference run returned no output 'y'")
        }
        return y
    }

    /// The fused kernel on `x` with the active ISA.
    private func fused(_ c: Case, x: [Float], w: [Float], b: [Float], threads: Int) throws -> [Float] {
        let g = try SpatialGeometry(inputSize: Array(c.inputShape[2...]), convolution: c.conv)
        var conv = fovea_conv2d_params(
            batch: c.inputShape[0], channels: c.inputShape[1], input_height: c.inputShape[2],
            input_width: c.inputShape[3], output_channels: c.outputChannels, groups: 1,
            output_height: g.outputSize[0], output_width: g.outputSize[1],
            kernel_height: g.kernelShape[0], kernel_width: g.kernelShape[1], stride_height: g.strides[0],
            stride_width: g.strides[1], dilation_height: g.dilations[0], dilation_width: g.dilations[1],
            pad_top: g.padsBegin[0], pad_left: g.padsBegin[1])
        var pool = try poolParameters(c.pool, inputShape: [c.inputShape[0], c.outputChannels] + g.outputSize)
        guard fovea_conv2d_maxpool_supported(&conv, &pool) != 0 else { return [] }
        var activation = fovea_activation(kind: c.conv.activation == .relu ? FOVEA_ACTIVATION_RELU : FOVEA_ACTIVATION_NONE,
                                          min: 0, max: 0, alpha: 0)
        let packedBytes = fovea_conv2d_packed_size(&conv)
        let packed = UnsafeMutableRawPointer.allocate(byteCount: packedBytes, alignment: 64)
        defer { packed.deallocate() }
        try checkKernelStatus(fovea_conv2d_pack(&conv, w, b, packed, packedBytes), "fovea_conv2d_pack")
        let workspaceBytes = fovea_conv2d_maxpool_workspace_size(packed, &pool, threads)
        XCTAssertGreaterThan(workspaceBytes, 0)
        let workspace = UnsafeMutableRawPointer.allocate(byteCount: workspaceBytes, alignment: 64)
        defer { workspace.deallocate() }
        var y = [Float](repeating: .nan, count: pool.batch * pool.channels * pool.output_height * pool.output_width)
        var threadPool = RunContext(threads: threads).kernelThreadPool
        let status = y.withUnsafeMutableBufferPointer { yp in
            fovea_conv2d_maxpool_f32(&conv, packed, &pool, x, yp.baseAddress, nil, &activation, workspace,
                                     workspaceBytes, &threadPool)
        }
        try checkKernelStatus(status, "fovea_conv2d_maxpool_f32")
        return y
    }

    func testConvThenMaxPoolingMatchesTheReferenceOnRandomShapes() throws {
        var rng = SeededGenerator(seed: 0x57E4)
        var compared = 0
        for isa in supportedKernelISAs {
            for index in 0..<24 {
                let c = randomCase(&rng, wide: index % 6 == 5)
                let channels = c.inputShape[1], k = c.conv.kernelShape[0] * c.conv.kernelShape[1]
                let x = (0..<c.inputShape.reduce(1, *)).map { _ in Float.random(in: -1...1, using: &rng) }
                let w = (0..<(c.outputChannels * channels * k)).map { _ in Float.random(in: -1...1, using: &rng) }
                let b = (0..<c.outputChannels).map { _ in Float.random(in: -1...1, using: &rng) }
                let want = try reference(c, x: Tensor(shape: c.inputShape, floats: x),
                                         w: Tensor(shape: [c.outputChannels, channels] + c.conv.kernelShape, floats: w),
                                         b: Tensor(shape: [c.outputChannels], floats: b)).requireFloats()
                let threads = Int.random(in: 1...3, using: &rng)
                let got = try withKernelISA(isa) { try fused(c, x: x, w: w, b: b, threads: threads) }
                if got.isEmpty { continue } // a shape the fused kernel leaves to the unfused pair
                XCTAssertEqual(got.count, want.count)
                let tolerance = 1e-5 * Float(1 + channels * k)
                let worst = zip(got, want).map { abs($0 - $1) }.max() ?? 0
                XCTAssertLessThanOrEqual(worst, tolerance, "\(isa), case \(index): \(c.inputShape) -> \(c.outputChannels), "
                                         + "conv \(c.conv), pool \(c.pool), \(threads) threads")
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 24)
    }

    func testRefusesAPoolingThatDoesNotReadTheConvolutionsOutput() {
        var conv = fovea_conv2d_params(batch: 1, channels: 3, input_height: 9, input_width: 9, output_channels: 8,
                                       groups: 1, output_height: 9, output_width: 9, kernel_height: 3,
                                       kernel_width: 3, stride_height: 1, stride_width: 1, dilation_height: 1,
                                       dilation_width: 1, pad_top: 1, pad_left: 1)
        var pool = fovea_pool2d_params(batch: 1, channels: 8, input_height: 9, input_width: 9, output_height: 4,
                                       output_width: 4, kernel_height: 2, kernel_width: 2, stride_height: 2,
                                       stride_width: 2, dilation_height: 1, dilation_width: 1, pad_top: 0,
                                       pad_left: 0, pad_bottom: 0, pad_right: 0, count_include_pad: 0)
        XCTAssertEqual(fovea_conv2d_maxpool_supported(&conv, &pool), 1)
        pool.channels = 7
        XCTAssertEqual(fovea_conv2d_maxpool_supported(&conv, &pool), 0)
        pool.channels = 8
        pool.input_height = 8
        XCTAssertEqual(fovea_conv2d_maxpool_supported(&conv, &pool), 0)
        pool.input_height = 9
        conv.groups = 2
        conv.channels = 4
        XCTAssertEqual(fovea_conv2d_maxpool_supported(&conv, &pool), 0)
    }
}
