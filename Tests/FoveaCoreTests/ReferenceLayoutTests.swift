import XCTest
@testable import FoveaCore

/// Data movement on every element type, with expected values written out by hand.
final class ReferenceLayoutTests: XCTestCase {
    func testConcat() throws {
        // Axis 1 of [[1, 2], [3, 4]] and [[5], [6]]: rows joined.
        let y = try evaluate1(.concat(axis: 1), try floats([2, 2], [1, 2, 3, 4]), try floats([2, 1], [5, 6]))
        assertClose(y, [2, 3], [1, 2, 5, 3, 4, 6])
        // Axis -2 (= 0) of three inputs.
        let z = try evaluate1(.concat(axis: -2), try floats([1, 2], [1, 2]), try floats([2, 2], [3, 4, 5, 6]), try floats([0, 2], []))
        assertClose(z, [3, 2], [1, 2, 3, 4, 5, 6])
        let ints = try evaluate1(.concat(axis: 0), try Tensor(shape: [2], int64s: [1, 2]), try Tensor(shape: [1], int64s: [3]))
        XCTAssertEqual(ints, try Tensor(shape: [3], int64s: [1, 2, 3]))
        let bools = try evaluate1(.concat(axis: 0), try Tensor(shape: [1], storage: .bool([true])), try Tensor(shape: [1], storage: .bool([false])))
        XCTAssertEqual(bools.bools, [true, false])
        // One input is a copy.
        XCTAssertEqual(try evaluate1(.concat(axis: 0), iota([3])), iota([3]))
    }

    func testShapeOnlyOps() throws {
        let x = iota([2, 1, 3])
        let ints = try Tensor(shape: [2, 1, 3], int64s: [0, 1, 2, 3, 4, 5])
        for (op, shape) in [(Op.flatten(axis: 1), [2, 3]), (.reshape(shape: [3, -1], allowZero: false), [3, 2]),
                            (.squeeze(axes: nil), [2, 3]), (.squeeze(axes: [1]), [2, 3]),
                            (.unsqueeze(axes: [0]), [1, 2, 1, 3]), (.identity, [2, 1, 3])] {
            let y = try evaluate1(op, x)
            XCTAssertEqual(y.shape, shape, op.typeName)
            XCTAssertEqual(y.floats, x.floats, "\(op.typeName) keeps the elements in order")
            XCTAssertEqual(try evaluate1(op, ints).int64s, ints.int64s, op.typeName)
        }
        // allowzero: a literal 0 dimension.
        let empty = try floats([0, 3], [])
        XCTAssertEqual(try evaluate1(.reshape(shape: [3, 0], allowZero: true), empty).shape, [3, 0])
    }

    func testDropout() throws {
        let x = try floats([2, 2], [1, -2, 3, -4])
        let outputs = try evaluate(.dropout, [x], outputCount: 2)
        XCTAssertEqual(outputs[0], x, "inference dropout is the identity")
        XCTAssertEqual(outputs[1].shape, [2, 2])
        XCTAssertEqual(outputs[1].bools, [true, true, true, true])
        XCTAssertEqual(try evaluate(.dropout, [x]).count, 1)
    }

    func testTranspose() throws {
        // [[1, 2, 3], [4, 5, 6]]ᵀ.
        let y = try evaluate1(.transpose(perm: nil), try floats([2, 3], [1, 2, 3, 4, 5, 6]))
        assertClose(y, [3, 2], [1, 4, 2, 5, 3, 6])
        // perm [1, 2, 0] of a 2×3×4 iota: y[i, j, k] = x[k, i, j] = 12k + 4i + j.
        let z = try evaluate1(.transpose(perm: [1, 2, 0]), iota([2, 3, 4]))
        assertClose(z, [3, 4, 2], [0, 12, 1, 13, 2, 14, 3, 15, 4, 16, 5, 17, 6, 18, 7, 19, 8, 20, 9, 21, 10, 22, 11, 23])
        let bools = try evaluate1(.transpose(perm: [1, 0]), try Tensor(shape: [1, 2], storage: .bool([true, false])))
        XCTAssertEqual(bools.shape, [2, 1])
        XCTAssertEqual(bools.bools, [true, false])
        XCTAssertEqual(try evaluate1(.transpose(perm: []), try floats([], [7])).floats, [7])
    }

    func testPad() throws {
        let x = try floats([2, 2], [1, 2, 3, 4])
        // pads [begin0, begin1, end0, end1] = [1, 0, 0, 1], value 9: a row on top, a column on the right.
        assertClose(try evaluate1(.pad(pads: [1, 0, 0, 1], value: 9, axes: nil), x), [3, 3], [9, 9, 9, 1, 2, 9, 3, 4, 9])
        // Only axis 1 (given as -1): a zero column on each side.
        assertClose(try evaluate1(.pad(pads: [1, 1], value: 0, axes: [-1]), x), [2, 4], [0, 1, 2, 0, 0, 3, 4, 0])
        // Negative pads crop: drop the first element, add two at the end.
        let line = try floats([5], [1, 2, 3, 4, 5])
        assertClose(try evaluate1(.pad(pads: [-1, 2], value: 0, axes: nil), line), [6], [2, 3, 4, 5, 0, 0])
        assertClose(try evaluate1(.pad(pads: [-2, -3], value: 0, axes: nil), line), [0], [])
        // Other element types take the value converted.
        let ints = try evaluate1(.pad(pads: [1, 0], value: 7, axes: nil), try Tensor(shape: [1], int64s: [3]))
        XCTAssertEqual(ints.int64s, [7, 3])
        let bools = try evaluate1(.pad(pads: [0, 1], value: 1, axes: nil), try Tensor(shape: [1], storage: .bool([false])))
        XCTAssertEqual(bools.bools, [false, true])
    }

    func testShape() throws {
        let x = iota([2, 3, 4])
        XCTAssertEqual(try evaluate1(.shape(start: 0, end: nil), x).int64s, [2, 3, 4])
        XCTAssertEqual(try evaluate1(.shape(start: 1, end: nil), x).int64s, [3, 4])
        XCTAssertEqual(try evaluate1(.shape(start: 0, end: -1), x).int64s, [2, 3])
        XCTAssertEqual(try evaluate1(.shape(start: -1, end: nil), x).int64s, [4])
        // Out-of-range start/end are clamped; an empty range gives an empty vector.
        XCTAssertEqual(try evaluate1(.shape(start: -10, end: 10), x).int64s, [2, 3, 4])
        let empty = try evaluate1(.shape(start: 2, end: 1), x)
        XCTAssertEqual(empty.shape, [0])
        XCTAssertEqual(empty.int64s, [])
        XCTAssertEqual(try evaluate1(.shape(start: 0, end: nil), try floats([], [1])).int64s, [])
    }
}
