import XCTest
@testable import FoveaCore

/// The int64 arithmetic exporters write on shapes (`x.size(1) - 1`, `h // 2`),
/// Neg and Abs of int64, and Size.
final class ReferenceShapeArithmeticTests: XCTestCase {
    private func ints(_ shape: [Int], _ values: [Int64]) -> Tensor { Tensor(uncheckedShape: shape, storage: .int64(values)) }

    func testIntegerArithmeticBroadcastsAndTruncatesDivision() throws {
        let dims = ints([3], [8, 224, -7])
        XCTAssertEqual(try evaluate1(.sub, dims, ints([], [1])).int64s, [7, 223, -8])
        XCTAssertEqual(try evaluate1(.add, dims, ints([1], [2])).int64s, [10, 226, -5])
        XCTAssertEqual(try evaluate1(.mul, ints([2, 1], [1, 2]), ints([2], [3, 4])), ints([2, 2], [3, 4, 6, 8]))
        // Toward zero, as ONNX runtimes divide integers (numpy's // would give -4).
        XCTAssertEqual(try evaluate1(.div, dims, ints([], [2])).int64s, [4, 112, -3])
        XCTAssertEqual(try evaluate1(.div, ints([1], [.min]), ints([1], [-1])).int64s, [.min], "wraps, no trap")
        XCTAssertEqual(try evaluate1(.unary(.neg), dims).int64s, [-8, -224, 7])
        XCTAssertEqual(try evaluate1(.unary(.abs), dims).int64s, [8, 224, 7])
    }

    func testIntegerErrors() {
        assertFoveaError(.invalidArgument, "integer division by zero") { try evaluate1(.div, self.ints([1], [4]), self.ints([1], [0])) }
        assertFoveaError(.unsupported, "A has data type int64 and B float32; Add computes on two float32 or two int64 tensors") {
            try evaluate1(.add, self.ints([1], [4]), Tensor(uncheckedShape: [1], floats: [1]))
        }
        assertFoveaError(.unsupported, "X has data type int64; Exp computes on float32 only") { try evaluate1(.unary(.exp), self.ints([1], [1])) }
    }

    func testSizeCountsElements() throws {
        XCTAssertEqual(try evaluate1(.size, iota([2, 3, 4])), ints([], [24]))
        XCTAssertEqual(try evaluate1(.size, Tensor(uncheckedShape: [0, 5], floats: [])), ints([], [0]))
    }
}
