import XCTest
@testable import FoveaCore

/// ReduceMean/Sum/Max/Min/L2/SumSquare and ArgMax on the reference backend:
/// values by hand, shapes with and without keepdims, NaN, and bad axes.
final class ReferenceReductionTests: XCTestCase {
    /// [[1, 2, 3], [4, 5, 6]]
    private let x = Tensor(uncheckedShape: [2, 3], floats: [1, 2, 3, 4, 5, 6])

    private func reduce(_ r: Reduction, _ axes: [Int]?, keepDims: Bool = true, _ input: Tensor? = nil) throws -> Tensor {
        try evaluate1(.reduce(ReduceAttributes(r, axes: axes, keepDims: keepDims)), input ?? x)
    }

    func testEachReductionAlongOneAxis() throws {
        assertClose(try reduce(.mean, [1]), [2, 1], [2, 5])
        assertClose(try reduce(.sum, [0]), [1, 3], [5, 7, 9])
        assertClose(try reduce(.max, [1]), [2, 1], [3, 6])
        assertClose(try reduce(.min, [0]), [1, 3], [1, 2, 3])
        // sqrt(1 + 4 + 9), sqrt(16 + 25 + 36)
        assertClose(try reduce(.l2, [1]), [2, 1], [Float(14).squareRoot(), Float(77).squareRoot()])
        assertClose(try reduce(.sumSquare, [1]), [2, 1], [14, 77])
    }

    func testAxesNegativeAllAndNone() throws {
        assertClose(try reduce(.mean, [-1], keepDims: false), [2], [2, 5])
        // nil reduces every axis.
        assertClose(try reduce(.sum, nil), [1, 1], [21])
        assertClose(try reduce(.sum, nil, keepDims: false), [], [21])
        // [] reduces none: each element is reduced alone (noop_with_empty_axes).
        assertClose(try reduce(.sum, []), [2, 3], [1, 2, 3, 4, 5, 6])
        assertClose(try reduce(.sumSquare, []), [2, 3], [1, 4, 9, 16, 25, 36])
        // Two axes of a 3-D tensor, the middle one kept.
        let cube = iota([2, 2, 2])
        assertClose(try reduce(.mean, [0, 2], cube), [1, 2, 1], [2.5, 4.5])
        assertClose(try reduce(.max, [2, 0], keepDims: false, cube), [2], [5, 7])
    }

    func testMaxAndMinPropagateNaNAndHandleInfinity() throws {
        let input = Tensor(uncheckedShape: [2, 2], floats: [1, .nan, -.infinity, -.infinity])
        let maxima = try XCTUnwrap(try reduce(.max, [1], input).floats)
        XCTAssertTrue(maxima[0].isNaN)
        XCTAssertEqual(maxima[1], -.infinity)
        XCTAssertTrue(try XCTUnwrap(try reduce(.min, [1], input).floats)[0].isNaN)
    }

    func testArgMax() throws {
        let ties = Tensor(uncheckedShape: [2, 3], floats: [3, 1, 3, 0, 7, -1])
        let first = try evaluate1(.argMax(axis: 1, keepDims: true, selectLastIndex: false), ties)
        XCTAssertEqual(first.shape, [2, 1])
        XCTAssertEqual(first.int64s, [0, 1])
        let last = try evaluate1(.argMax(axis: -1, keepDims: false, selectLastIndex: true), ties)
        XCTAssertEqual(last.shape, [2])
        XCTAssertEqual(last.int64s, [2, 1])
        XCTAssertEqual(try evaluate1(.argMax(axis: 0, keepDims: false, selectLastIndex: false), ties).int64s, [0, 1, 0])
        // NaN counts as the largest, like numpy.argmax.
        let withNaN = Tensor(uncheckedShape: [4], floats: [1, .nan, 5, .nan])
        XCTAssertEqual(try evaluate1(.argMax(axis: 0, keepDims: true, selectLastIndex: false), withNaN).int64s, [1])
    }

    func testBadAxesAndTypesAreTypedErrors() {
        assertFoveaError(.invalidAttribute, "axis 2 is out of range for rank 2") { try self.reduce(.mean, [2]) }
        assertFoveaError(.invalidAttribute, "axes [1, -1] repeat axis -1") { try self.reduce(.sum, [1, -1]) }
        assertFoveaError(.invalidAttribute, "axis -3 is out of range for rank 2") {
            try evaluate1(.argMax(axis: -3, keepDims: true, selectLastIndex: false), self.x)
        }
        let integers = Tensor(uncheckedShape: [2], storage: .int64([1, 2]))
        assertFoveaError(.unsupported, "data has data type int64; ReduceMean computes on float32 only") { try self.reduce(.mean, nil, integers) }
        assertFoveaError(.shapeMismatch, "ArgMax needs a non-empty axis 1") {
            try evaluate1(.argMax(axis: 1, keepDims: true, selectLastIndex: false), Tensor(uncheckedShape: [2, 0], floats: []))
        }
    }

    func testShapeInferenceMatchesTheComputedShape() throws {
        XCTAssertEqual(try inferred(.reduce(ReduceAttributes(.l2, axes: [1, 3], keepDims: false)), [f32([2, 3, 4, 5])]), [f32([2, 4])])
        XCTAssertEqual(try inferred(.argMax(axis: 1, keepDims: true, selectLastIndex: false), [f32([2, 3, 4])]), [TensorType(.int64, [2, 1, 4])])
    }
}
