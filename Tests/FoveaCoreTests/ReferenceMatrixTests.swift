import XCTest
@testable import FoveaCore

/// Gemm and MatMul with products worked out by hand:
/// A = [[1, 2, 3], [4, 5, 6]], B = [[1, 0], [0, 1], [1, 1]] → AB = [[4, 5], [10, 11]].
final class ReferenceMatrixTests: XCTestCase {
    private let a = Tensor(uncheckedShape: [2, 3], floats: [1, 2, 3, 4, 5, 6])
    private let b = Tensor(uncheckedShape: [3, 2], floats: [1, 0, 0, 1, 1, 1])
    private let aTransposed = Tensor(uncheckedShape: [3, 2], floats: [1, 4, 2, 5, 3, 6])
    private let bTransposed = Tensor(uncheckedShape: [2, 3], floats: [1, 0, 1, 0, 1, 1])

    func testGemm() throws {
        assertClose(try evaluate(.gemm(GemmAttributes()), [a, b, nil])[0], [2, 2], [4, 5, 10, 11])
        // 2 * AB + 0.5 * [1, 2] (a row broadcast down).
        let c = try floats([2], [1, 2])
        assertClose(try evaluate1(.gemm(GemmAttributes(alpha: 2, beta: 0.5)), a, b, c), [2, 2], [8.5, 11, 20.5, 23])
        // A column bias 2×1 and a scalar bias.
        assertClose(try evaluate1(.gemm(GemmAttributes()), a, b, try floats([2, 1], [100, 200])), [2, 2], [104, 105, 210, 211])
        assertClose(try evaluate1(.gemm(GemmAttributes(beta: 2)), a, b, try floats([], [1])), [2, 2], [6, 7, 12, 13])
    }

    func testGemmTransposes() throws {
        assertClose(try evaluate1(.gemm(GemmAttributes(transA: true)), aTransposed, b), [2, 2], [4, 5, 10, 11])
        assertClose(try evaluate1(.gemm(GemmAttributes(transB: true)), a, bTransposed), [2, 2], [4, 5, 10, 11])
        assertClose(try evaluate1(.gemm(GemmAttributes(transA: true, transB: true)), aTransposed, bTransposed), [2, 2], [4, 5, 10, 11])
    }

    func testMatMul() throws {
        assertClose(try evaluate1(.matMul, a, b), [2, 2], [4, 5, 10, 11])
        // 1-D · 1-D: 1*4 + 2*5 + 3*6 = 32, a scalar.
        assertClose(try evaluate1(.matMul, try floats([3], [1, 2, 3]), try floats([3], [4, 5, 6])), [], [32])
        let square = try floats([2, 2], [1, 2, 3, 4])
        // Row vector times matrix: column sums [4, 6]; matrix times column vector: row sums [3, 7].
        assertClose(try evaluate1(.matMul, try floats([2], [1, 1]), square), [2], [4, 6])
        assertClose(try evaluate1(.matMul, square, try floats([2], [1, 1])), [2], [3, 7])
    }

    func testMatMulBatchBroadcast() throws {
        // Two 1×2 rows times one shared 2×1 column [1, 10]: 1 + 20 = 21, 3 + 40 = 43.
        let rows = try floats([2, 1, 2], [1, 2, 3, 4])
        assertClose(try evaluate1(.matMul, rows, try floats([2, 1], [1, 10])), [2, 1, 1], [21, 43])
        // Batch 2×1 against 3: rows a0 = [1, 2], a1 = [3, 4]; columns b0 = [1, 0], b1 = [0, 1], b2 = [1, 1].
        // out[i, j] = a_i · b_j.
        let lhs = try floats([2, 1, 1, 2], [1, 2, 3, 4])
        let rhs = try floats([3, 2, 1], [1, 0, 0, 1, 1, 1])
        assertClose(try evaluate1(.matMul, lhs, rhs), [2, 3, 1, 1], [1, 2, 3, 3, 4, 7])
        // A 1-D left operand against a batch of matrices: [1, 1] times two 2×2 → column sums of each.
        let batch = try floats([2, 2, 2], [1, 2, 3, 4, 5, 6, 7, 8])
        assertClose(try evaluate1(.matMul, try floats([2], [1, 1]), batch), [2, 2], [4, 6, 12, 14])
    }
}
