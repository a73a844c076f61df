import XCTest
@testable import FoveaCore

/// ScatterND on the reference backend, on the ONNX specification's examples
/// and the slice assignment Swin-T's shifted-window mask is built with.
final class ReferenceScatterNDTests: XCTestCase {
    private func indices(_ shape: [Int], _ values: [Int64]) -> Tensor { Tensor(uncheckedShape: shape, storage: .int64(values)) }

    func testElementsAndSlices() throws {
        // The spec's example 1: data [1..8], indices [[4], [3], [1], [7]].
        let data = iota([8], from: 1)
        XCTAssertEqual(try evaluate1(.scatterND(reduction: .none), data, indices([4, 1], [4, 3, 1, 7]), try floats([4], [9, 10, 11, 12])).floats,
                       [1, 11, 3, 10, 9, 6, 7, 12])
        // Whole rows of a 3×2 (indices address axis 0 only); a negative index counts from the end.
        let rows = try evaluate1(.scatterND(reduction: .none), iota([3, 2]), indices([2, 1], [0, -1]), try floats([2, 2], [10, 11, 20, 21]))
        XCTAssertEqual(rows.floats, [10, 11, 2, 3, 20, 21])
        // Swin-T's mask: attn_mask[0:2, 1:2] = 1 becomes a ScatterND of single elements into zeros.
        let mask = try evaluate1(.scatterND(reduction: .none), Tensor(uncheckedShape: [2, 2], floats: [0, 0, 0, 0]),
                                 indices([2, 1, 2], [0, 1, 1, 1]), try floats([2, 1], [1, 1]))
        XCTAssertEqual(mask.floats, [0, 1, 0, 1])
    }

    func testReductionsAndErrors() throws {
        let data = iota([4], from: 1), at = indices([3, 1], [0, 0, 2]), updates = try floats([3], [10, 20, 5])
        XCTAssertEqual(try evaluate1(.scatterND(reduction: .add), data, at, updates).floats, [31, 2, 8, 4])
        XCTAssertEqual(try evaluate1(.scatterND(reduction: .mul), data, at, updates).floats, [200, 2, 15, 4])
        XCTAssertEqual(try evaluate1(.scatterND(reduction: .max), data, at, updates).floats, [20, 2, 5, 4])
        XCTAssertEqual(try evaluate1(.scatterND(reduction: .min), data, at, updates).floats, [1, 2, 3, 4])
        XCTAssertEqual(try evaluate1(.scatterND(reduction: .add), Tensor(uncheckedShape: [2], storage: .int64([1, 2])), indices([1, 1], [1]),
                                     Tensor(uncheckedShape: [1], storage: .int64([5]))).int64s, [1, 7])
        assertFoveaError(.shapeMismatch, "updates is float32 2; expected float32 3") { try evaluate1(.scatterND(reduction: .none), data, at, try floats([2], [1, 2])) }
        assertFoveaError(.invalidArgument, "index 4 on axis 0 is out of range") {
            try evaluate1(.scatterND(reduction: .none), data, self.indices([1, 1], [4]), try floats([1], [1]))
        }
    }
}
