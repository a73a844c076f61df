import XCTest
@testable import FoveaCore

/// Activations and broadcasting binary ops. Expected values are by hand; the
/// sigmoid values are 1 / (1 + e^-x) from a calculator (numpy gives the same).
final class ReferenceElementwiseTests: XCTestCase {
    func testActivations() throws {
        let x = try floats([5], [-4, -1, 0, 1, 4])
        assertClose(try evaluate1(.relu, x), [5], [0, 0, 0, 1, 4])
        assertClose(try evaluate1(.leakyRelu(alpha: 0.1), x), [5], [-0.4, -0.1, 0, 1, 4])
        // clamp(0.2x + 0.5, 0, 1).
        assertClose(try evaluate1(.hardSigmoid(alpha: 0.2, beta: 0.5), x), [5], [0, 0.3, 0.5, 0.7, 1])
        // x * clamp(x/6 + 1/2, 0, 1): -1 * 1/3, 1 * 2/3, and 4 * 1.
        assertClose(try evaluate1(.hardSwish, x), [5], [0, -1.0 / 3, 0, 2.0 / 3, 4])
        assertClose(try evaluate1(.clip(min: -1, max: 2), x), [5], [-1, -1, 0, 1, 2])
        assertClose(try evaluate1(.clip(min: nil, max: 0.5), x), [5], [-4, -1, 0, 0.5, 0.5])
        assertClose(try evaluate1(.clip(min: nil, max: nil), x), [5], [-4, -1, 0, 1, 4])
        // min > max: numpy's clip gives max.
        assertClose(try evaluate1(.clip(min: 3, max: 1), x), [5], [1, 1, 1, 1, 1])
    }

    func testSigmoidIsStableAtTheExtremes() throws {
        let y = try evaluate1(.sigmoid, try floats([2, 3], [0, 2, -2, 100, -100, 1]))
        assertClose(y, [2, 3], [0.5, 0.880797, 0.119203, 1, 0, 0.731059])
        XCTAssertFalse((y.floats ?? []).contains { $0.isNaN })
    }

    func testNaNPassesThroughClip() throws {
        let y = try evaluate1(.clip(min: 0, max: 1), try floats([1], [.nan]))
        XCTAssertTrue(y.floats?.first?.isNaN ?? false)
    }

    func testBroadcastingArithmetic() throws {
        let column = try floats([2, 1], [1, 2])
        let row = try floats([3], [10, 20, 30])
        assertClose(try evaluate1(.add, column, row), [2, 3], [11, 21, 31, 12, 22, 32])
        assertClose(try evaluate1(.sub, column, row), [2, 3], [-9, -19, -29, -8, -18, -28])
        assertClose(try evaluate1(.mul, row, column), [2, 3], [10, 20, 30, 20, 40, 60])
        assertClose(try evaluate1(.div, row, try floats([], [4])), [3], [2.5, 5, 7.5])
        // Same shapes take the elementwise path.
        assertClose(try evaluate1(.div, row, row), [3], [1, 1, 1])
        // Both operands broadcast: 2×1×3 and 1×2×1 → 2×2×3; y[i, j, k] = a[i, k] * b[j].
        let a = try floats([2, 1, 3], [1, 2, 3, 4, 5, 6])
        let b = try floats([1, 2, 1], [1, -1])
        assertClose(try evaluate1(.mul, a, b), [2, 2, 3], [1, 2, 3, -1, -2, -3, 4, 5, 6, -4, -5, -6])
        // Division by zero follows IEEE.
        XCTAssertEqual(try evaluate1(.div, try floats([1], [1]), try floats([1], [0])).floats, [.infinity])
    }

    func testSum() throws {
        // [1, 2] + [[10], [20]] + 100.
        let y = try evaluate1(.sum, try floats([2], [1, 2]), try floats([2, 1], [10, 20]), try floats([], [100]))
        assertClose(y, [2, 2], [111, 112, 121, 122])
        assertClose(try evaluate1(.sum, try floats([2], [3, 4])), [2], [3, 4])
    }

    func testPRelu() throws {
        // A per-channel slope (2×1 against 1×2×2): channel 0 slope 0.5, channel 1 slope 0.25.
        let x = try floats([1, 2, 2], [-1, 2, -3, 4])
        let slope = try floats([2, 1], [0.5, 0.25])
        assertClose(try evaluate1(.prelu, x, slope), [1, 2, 2], [-0.5, 2, -0.75, 4])
        // A scalar slope.
        assertClose(try evaluate1(.prelu, x, try floats([], [2])), [1, 2, 2], [-2, 2, -6, 4])
    }

    func testNonFloatArithmeticIsUnsupported() throws {
        let ints = try Tensor(shape: [2], int64s: [1, 2])
        // Two int64 tensors add (shape arithmetic, see ReferenceShapeArithmeticTests); mixed types and bools do not.
        assertFoveaError(.unsupported, "A has data type int64 and B float32") {
            try evaluate1(.add, ints, try floats([2], [1, 2]))
        }
        let bools = Tensor(uncheckedShape: [1], storage: .bool([true]))
        assertFoveaError(.unsupported, "A has data type bool and B bool; Mul computes on two float32 or two int64 tensors") {
            try evaluate1(.mul, bools, bools)
        }
        assertFoveaError(.unsupported, "int64", "Sigmoid") {
            try evaluate1(.sigmoid, ints)
        }
    }
}
