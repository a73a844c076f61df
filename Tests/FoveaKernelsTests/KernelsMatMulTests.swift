import XCTest
import FoveaCore
import FoveaTestSupport
@testable import FoveaKernelsBackend

/// Gemm and MatMul with many rows on the kernels' packed GEMM
/// (``PackedMatMulStep``) against the reference backend: token matrices by
/// constant weights (batch axes flattened), two activations (batched over
/// heads, broadcast), transposed B, α and β·C, odd sizes, 1 and 2 threads;
/// and the nodes it must decline.
final class KernelsMatMulTests: XCTestCase {
    /// Sums of up to a few hundred products of values in ±4: relative to the largest output.
    private let tolerance: Tolerance? = nil

    func testConstantWeightsOverTokenRows() throws {
        var generator = SeededGenerator(seed: 19)
        for (aShape, bShape) in [([17, 5], [5, 47]), ([197, 64], [64, 33]), ([2, 30, 40], [40, 70]),
                                 ([1, 3, 9, 300], [300, 9]), ([300, 1], [1, 1]), ([29, 257], [257, 16])] {
            let a = LayerCheck.randomTensor(aShape, using: &generator)
            let b = LayerCheck.randomTensor(bShape, using: &generator)
            for threads in [1, 2] {
                let algorithm = try KernelsTestSupport.check(.matMul, [a, b], constants: [1], tolerance: tolerance,
                                                             threads: threads, "matmul \(aShape)·\(bShape)")
                XCTAssertTrue(algorithm.hasPrefix("matmul") && algorithm.hasSuffix("packed B"), algorithm)
            }
        }
    }

    func testGemmWithTransposedBAlphaAndBiasRow() throws {
        var generator = SeededGenerator(seed: 20)
        for (rows, k, n, cShape) in [(40, 33, 21, [21]), (19, 8, 64, [1, 64]), (64, 100, 5, [1])] {
            let a = LayerCheck.randomTensor([rows, k], using: &generator)
            let bT = LayerCheck.randomTensor([n, k], using: &generator)
            let c = LayerCheck.randomTensor(cShape, using: &generator)
            let op = Op.gemm(GemmAttributes(alpha: 0.5, beta: 2, transA: false, transB: true))
            try KernelsTestSupport.check(op, [a, bT, c], constants: [1, 2], tolerance: tolerance, "gemm \(rows)×\(k)·\(k)×\(n) + C\(cShape)")
            let plain = Op.gemm(GemmAttributes())
            let b = LayerCheck.randomTensor([k, n], using: &generator)
            try KernelsTestSupport.check(plain, [a, b], constants: [1], tolerance: tolerance, threads: 2, "gemm \(rows)×\(k)·\(k)×\(n)")
        }
    }

    func testTwoActivationsBatchedAndBroadcast() throws {
        var generator = SeededGenerator(seed: 21)
        // Attention's Q·Kᵀ and weights·V over heads, a broadcast batch, a shared B, one row, 1-D operands.
        for (aShape, bShape) in [([1, 3, 197, 64], [1, 3, 64, 197]), ([3, 49, 49], [3, 49, 32]), ([2, 1, 5, 7], [3, 7, 9]),
                                 ([4, 6, 8], [8, 5]), ([1, 10], [10, 300]), ([7], [7, 4]), ([3, 2, 7], [7])] {
            let a = LayerCheck.randomTensor(aShape, using: &generator)
            let b = LayerCheck.randomTensor(bShape, using: &generator)
            for threads in [1, 2] {
                let algorithm = try KernelsTestSupport.check(.matMul, [a, b], tolerance: tolerance, threads: threads,
                                                             "matmul \(aShape)·\(bShape)")
                XCTAssertTrue(algorithm.hasPrefix("matmul"), algorithm)
            }
        }
        let a = LayerCheck.randomTensor([12, 9], using: &generator), bT = LayerCheck.randomTensor([20, 9], using: &generator)
        try KernelsTestSupport.check(.gemm(GemmAttributes(alpha: 1.5, transB: true)), [a, bT], tolerance: tolerance, "gemm of activations, transB")
    }

    func testSpecialValuesPropagate() throws {
        var generator = SeededGenerator(seed: 22)
        // NaN and ±infinity, not ±greatestFiniteMagnitude: whether sums of those overflow depends on their order.
        let specials: [Float] = [.nan, .infinity, -.infinity]
        let values = (0..<(40 * 24)).map { _ -> Float in
            Int.random(in: 0..<20, using: &generator) == 0 ? specials.randomElement(using: &generator)!
                : Float.random(in: -4...4, using: &generator)
        }
        let a = Tensor(shape: [40, 24], repeating: 0).replacingFloats(values)
        let b = LayerCheck.randomTensor([24, 40], using: &generator)
        try KernelsTestSupport.check(.matMul, [a, b], constants: [1], tolerance: Tolerance(absolute: 1e-3, relative: 1e-4), "matmul with NaN and infinities")
    }

    func testDeclinesWhatItCannotRun() throws {
        var generator = SeededGenerator(seed: 23)
        let a = LayerCheck.randomTensor([30, 8], using: &generator), b = LayerCheck.randomTensor([8, 6], using: &generator)
        // transA, a C of many rows, a C that is an activation, mismatched inner sizes, an empty operand.
        let transA = try LayerCheck.nodeContext(.gemm(GemmAttributes(transA: true)), [LayerCheck.randomTensor([8, 30], using: &generator), b], constants: [1])
        XCTAssertFalse(KernelsBackend().supports(transA))
        let fullC = try LayerCheck.nodeContext(.gemm(GemmAttributes()), [a, b, LayerCheck.randomTensor([30, 6], using: &generator)], constants: [1, 2])
        XCTAssertFalse(KernelsBackend().supports(fullC))
        let runTimeC = try LayerCheck.nodeContext(.gemm(GemmAttributes()), [a, b, LayerCheck.randomTensor([6], using: &generator)], constants: [1])
        XCTAssertFalse(KernelsBackend().supports(runTimeC))
        XCTAssertFalse(KernelsTestSupport.supports(.matMul, [TensorType(.float32, [30, 8]), TensorType(.float32, [9, 6])]))
        XCTAssertFalse(KernelsTestSupport.supports(.matMul, [TensorType(.float32, [0, 8]), TensorType(.float32, [8, 6])]))
        XCTAssertFalse(KernelsTestSupport.supports(.matMul, [TensorType(.int64, [30, 8]), TensorType(.int64, [8, 6])]))
    }
}
