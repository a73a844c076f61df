import XCTest
import FoveaCore
import FoveaTestSupport
@testable import FoveaBLASBackend

/// The blas backend against the reference on the shape families of the SIMD
/// backend's tests, each within the step's own tolerance, plus strided
/// output and exact-workspace runs (``LayerCheck``).
final class BLASBackendTests: XCTestCase {
    private let backend = BLASBackend()

    private func conv(_ kernel: [Int], strides: [Int] = [1, 1], dilations: [Int] = [1, 1], pads: [Int] = [0, 0, 0, 0],
                      group: Int = 1, activation: FusedActivation? = nil) -> Op {
        .conv(ConvAttributes(kernelShape: kernel, strides: strides, dilations: dilations, pads: pads, group: group, activation: activation))
    }

    func testConvolutionShapes() throws {
        var g = SeededGenerator(seed: 91)
        var algorithms = Set<String>()
        for case_ in 0..<60 {
            let batch = Int.random(in: 1...3, using: &g)
            let group = LayerCheck.pick([1, 1, 2, 3], &g)
            let channels = group * Int.random(in: 1...5, using: &g)
            let outputs = group * Int.random(in: 1...6, using: &g)
            let k = LayerCheck.pick([1, 1, 2, 3, 5], &g)
            let stride = LayerCheck.pick([1, 1, 2], &g), dilation = LayerCheck.pick([1, 1, 2], &g)
            let pad = Int.random(in: 0...k, using: &g)
            let size = Int.random(in: (k - 1) * dilation + 1 ... 15, using: &g)
            let x = LayerCheck.randomTensor([batch, channels, size, size + case_ % 3], using: &g)
            let w = LayerCheck.randomTensor([outputs, channels / group, k, k], using: &g)
            let b = LayerCheck.randomTensor([outputs], using: &g)
            let activation = LayerCheck.pick([nil, .relu, .clip(min: 0, max: 6), .leakyRelu(alpha: 0.1)] as [FusedActivation?], &g)
            let op = conv([k, k], strides: [stride, stride], dilations: [dilation, dilation], pads: [pad, pad, pad, pad],
                          group: group, activation: activation)
            let withBias = Bool.random(using: &g)
            algorithms.insert(try LayerCheck.check(backend, op, withBias ? [x, w, b] : [x, w], constants: withBias ? [1, 2] : [1],
                                                   tolerance: nil, threads: 1 + case_ % 2, "conv case \(case_)"))
        }
        XCTAssertTrue(algorithms.contains { $0.hasPrefix("sgemm 1x1") }, "\(algorithms)")
        XCTAssertTrue(algorithms.contains { $0.hasPrefix("im2col+sgemm 3x3") }, "\(algorithms)")
    }

    func testSqueezeNetLayerShapes() throws {
        var g = SeededGenerator(seed: 5)
        let x = LayerCheck.randomTensor([1, 3, 224, 224], using: &g)
        let w = LayerCheck.randomTensor([64, 3, 3, 3], in: -0.5...0.5, using: &g)
        XCTAssertEqual(try LayerCheck.check(backend, conv([3, 3], strides: [2, 2], activation: .relu), [x, w], constants: [1],
                                            tolerance: nil, threads: 2, "conv1"), "im2col+sgemm 3x3 +relu")
        let y = LayerCheck.randomTensor([2, 64, 55, 55], using: &g)
        let squeeze = LayerCheck.randomTensor([16, 64, 1, 1], in: -0.5...0.5, using: &g)
        try LayerCheck.check(backend, conv([1, 1], activation: .relu), [y, squeeze], constants: [1], tolerance: nil, threads: 2, "fire squeeze, batch 2")
    }

    func testGemmTransposesAlphaBetaAndBroadcastC() throws {
        var g = SeededGenerator(seed: 17)
        for case_ in 0..<40 {
            let m = Int.random(in: 1...20, using: &g), n = Int.random(in: 1...20, using: &g), k = Int.random(in: 1...30, using: &g)
            let transA = Bool.random(using: &g), transB = Bool.random(using: &g)
            let a = LayerCheck.randomTensor(transA ? [k, m] : [m, k], using: &g)
            let b = LayerCheck.randomTensor(transB ? [n, k] : [k, n], using: &g)
            let attributes = GemmAttributes(alpha: LayerCheck.pick([1, 0.5, -2], &g), beta: LayerCheck.pick([1, 0, 0.25], &g),
                                            transA: transA, transB: transB)
            let cShape = LayerCheck.pick([[m, n], [n], [1, n], [m, 1], [], [1]], &g)
            let inputs = case_ % 4 == 0 ? [a, b] : [a, b, LayerCheck.randomTensor(cShape, using: &g)]
            try LayerCheck.check(backend, .gemm(attributes), inputs, constants: [1], tolerance: nil, "gemm case \(case_) C \(cShape)")
        }
    }

    func testMatMulBatchedAndBroadcast() throws {
        var g = SeededGenerator(seed: 23)
        let shapes: [([Int], [Int])] = [
            ([4, 5], [5, 3]), ([2, 4, 5], [2, 5, 3]), ([2, 4, 5], [5, 3]), ([3, 1, 4, 5], [2, 5, 6]),
            ([5], [5, 3]), ([2, 4, 5], [5]), ([5], [5]), ([1, 4, 5], [3, 5, 2]),
        ]
        for (lhs, rhs) in shapes {
            let a = LayerCheck.randomTensor(lhs, using: &g), b = LayerCheck.randomTensor(rhs, using: &g)
            try LayerCheck.check(backend, .matMul, [a, b], tolerance: nil, "matmul \(lhs) × \(rhs)")
        }
    }

    func testClaimsOnlyGEMMShapedWork() throws {
        let x = Tensor(shape: [1, 2, 4, 4], repeating: 1)
        XCTAssertFalse(LayerCheck.supports(backend, .relu, [TensorType(.float32, x.shape)]))
        XCTAssertFalse(LayerCheck.supports(backend, .maxPool(PoolAttributes(kernelShape: [2, 2], strides: [2, 2], dilations: [], pads: [])),
                                           [TensorType(.float32, x.shape)]))
        // Weights that are not constants are left to another backend.
        let context = try LayerCheck.nodeContext(conv([1, 1]), [x, Tensor(shape: [3, 2, 1, 1], repeating: 1)])
        XCTAssertFalse(backend.supports(context))
        XCTAssertThrowsError(try backend.prepare(context))
    }

    func testConfigurationNamesOpenBLAS() {
        XCTAssertTrue(BLASBackend.configuration.contains("OpenBLAS"), BLASBackend.configuration)
    }
}
