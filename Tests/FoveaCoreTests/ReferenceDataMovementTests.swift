import XCTest
@testable import FoveaCore

/// Slice, Split, Gather, Expand, Tile, DepthToSpace, SpaceToDepth, Where,
/// the comparisons, Not and Cast on the reference backend: values by hand,
/// every element type where the operator takes any, and bad input.
final class ReferenceDataMovementTests: XCTestCase {
    /// 0 ... 11 as 3×4.
    private let x = iota([3, 4])

    func testSliceClampsWrapsAndSteps() throws {
        assertClose(try evaluate1(.slice(starts: [1], ends: [3], axes: [1], steps: nil), x), [3, 2], [1, 2, 5, 6, 9, 10])
        // Negative start, end beyond the axis, step 2 on axis 0.
        assertClose(try evaluate1(.slice(starts: [0, -2], ends: [100, 4], axes: nil, steps: [2, 1]), x), [2, 2], [2, 3, 10, 11])
        // Backwards: from the last column to before the first.
        assertClose(try evaluate1(.slice(starts: [-1], ends: [Int.min], axes: [-1], steps: [-1]), x), [3, 4], [3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8])
        // An empty range is an empty tensor, not an error.
        XCTAssertEqual(try evaluate1(.slice(starts: [2], ends: [1], axes: [0], steps: nil), x).shape, [0, 4])
        // Any element type.
        let ints = Tensor(uncheckedShape: [4], storage: .int64([1, 224, 224, 3]))
        XCTAssertEqual(try evaluate1(.slice(starts: [1], ends: [3], axes: [0], steps: nil), ints).int64s, [224, 224])
        assertFoveaError(.invalidAttribute, "steps [0] has a 0") { try evaluate1(.slice(starts: [0], ends: [1], axes: [0], steps: [0]), self.x) }
        assertFoveaError(.invalidAttribute, "axes [1, 1] repeat an axis") {
            try evaluate1(.slice(starts: [0, 0], ends: [1, 1], axes: [1, 1], steps: nil), self.x)
        }
        assertFoveaError(.invalidAttribute, "have 1, 2, 1 and 1 values") { try evaluate1(.slice(starts: [0], ends: [1, 2], axes: nil, steps: nil), self.x) }
    }

    func testSplitEqualUnevenAndGivenSizes() throws {
        let parts = try evaluate(.split(axis: 1, sizes: [1, 3]), [x], outputCount: 2)
        assertClose(parts[0], [3, 1], [0, 4, 8])
        assertClose(parts[1], [3, 3], [1, 2, 3, 5, 6, 7, 9, 10, 11])
        let equal = try evaluate(.split(axis: 0, sizes: nil), [x], outputCount: 3)
        XCTAssertEqual(equal.map(\.shape), [[1, 4], [1, 4], [1, 4]])
        assertClose(equal[2], [1, 4], [8, 9, 10, 11])
        // 4 into 3 parts: 2, 2 and what is left (opset 18 num_outputs).
        XCTAssertEqual(try evaluate(.split(axis: -1, sizes: nil), [x], outputCount: 3).map(\.shape), [[3, 2], [3, 2], [3, 0]])
        assertFoveaError(.shapeMismatch, "'split' [1, 2] does not add up to the 4 of axis 1") { try evaluate(.split(axis: 1, sizes: [1, 2]), [self.x], outputCount: 2) }
        assertFoveaError(.shapeMismatch, "axis 0 of size 3 cannot be split into 5 parts of 1") { try evaluate(.split(axis: 0, sizes: nil), [self.x], outputCount: 5) }
    }

    func testGatherAlongAnAxisWithNegativeAndMatrixIndices() throws {
        let rows = Tensor(uncheckedShape: [2], storage: .int64([2, -3]))
        assertClose(try evaluate1(.gather(axis: 0), x, rows), [2, 4], [8, 9, 10, 11, 0, 1, 2, 3])
        let columns = Tensor(uncheckedShape: [2, 2], storage: .int64([3, 0, 1, 1]))
        assertClose(try evaluate1(.gather(axis: 1), x, columns), [3, 2, 2], [3, 0, 1, 1, 7, 4, 5, 5, 11, 8, 9, 9])
        // A scalar index drops the axis: how exporters take one dimension of a shape.
        let shape = Tensor(uncheckedShape: [4], storage: .int64([8, 3, 224, 224]))
        let batch = try evaluate1(.gather(axis: 0), shape, Tensor(uncheckedShape: [], storage: .int64([0])))
        XCTAssertEqual(batch.shape, [])
        XCTAssertEqual(batch.int64s, [8])
        assertFoveaError(.invalidArgument, "index 3 is out of range for axis 0 of size 3") {
            try evaluate1(.gather(axis: 0), self.x, Tensor(uncheckedShape: [1], storage: .int64([3])))
        }
        assertFoveaError(.unsupported, "indices has data type float32; expected int64") {
            try evaluate1(.gather(axis: 0), self.x, Tensor(uncheckedShape: [1], floats: [0]))
        }
    }

    func testExpandAndTile() throws {
        let column = Tensor(uncheckedShape: [2, 1], floats: [1, 2])
        assertClose(try evaluate1(.expand(shape: [2, 3]), column), [2, 3], [1, 1, 1, 2, 2, 2])
        // Expand broadcasts both ways: a smaller target keeps the input's extent.
        assertClose(try evaluate1(.expand(shape: [2, 1, 1]), column), [2, 2, 1], [1, 2, 1, 2])
        assertFoveaError(.shapeMismatch, "cannot be broadcast") { try evaluate1(.expand(shape: [3, 3]), column) }
        assertClose(try evaluate1(.tile(repeats: [2, 2]), column), [4, 2], [1, 1, 2, 2, 1, 1, 2, 2])
        assertFoveaError(.invalidAttribute, "repeats has 1 values; expected one per axis") { try evaluate1(.tile(repeats: [2]), column) }
    }

    func testDepthToSpaceBothModesAndSpaceToDepthInverse() throws {
        // 1×4×1×2: channel c holds [10c, 10c + 1].
        let x = Tensor(uncheckedShape: [1, 4, 1, 2], floats: [0, 1, 10, 11, 20, 21, 30, 31])
        // DCR: block offset (i, j) = channel i*2 + j.
        let dcr = try evaluate1(.depthToSpace(blockSize: 2, columnRowDepth: false), x)
        assertClose(dcr, [1, 1, 2, 4], [0, 10, 1, 11, 20, 30, 21, 31])
        // With one output channel CRD and DCR agree; with two they differ.
        let crd = try evaluate1(.depthToSpace(blockSize: 2, columnRowDepth: true), x)
        assertClose(crd, [1, 1, 2, 4], [0, 10, 1, 11, 20, 30, 21, 31])
        let eight = iota([1, 8, 1, 1])
        assertClose(try evaluate1(.depthToSpace(blockSize: 2, columnRowDepth: false), eight), [1, 2, 2, 2], [0, 2, 4, 6, 1, 3, 5, 7])
        assertClose(try evaluate1(.depthToSpace(blockSize: 2, columnRowDepth: true), eight), [1, 2, 2, 2], [0, 1, 2, 3, 4, 5, 6, 7])
        // SpaceToDepth undoes DCR DepthToSpace.
        assertClose(try evaluate1(.spaceToDepth(blockSize: 2), dcr), [1, 4, 1, 2], x.floats ?? [])
        assertFoveaError(.shapeMismatch, "3 channels are not a multiple of blocksize² = 4") {
            try evaluate1(.depthToSpace(blockSize: 2, columnRowDepth: false), iota([1, 3, 1, 1]))
        }
        assertFoveaError(.shapeMismatch, "height and width are not multiples of blocksize 2") { try evaluate1(.spaceToDepth(blockSize: 2), iota([1, 1, 3, 2])) }
        assertFoveaError(.shapeMismatch, "expected rank 4") { try evaluate1(.spaceToDepth(blockSize: 2), iota([4, 4])) }
    }

    func testWhereComparisonsNotAndCast() throws {
        let a = Tensor(uncheckedShape: [3], floats: [1, 5, .nan])
        let b = Tensor(uncheckedShape: [1], floats: [5])
        XCTAssertEqual(try evaluate1(.compare(.less), a, b).bools, [true, false, false])
        XCTAssertEqual(try evaluate1(.compare(.greaterOrEqual), a, b).bools, [false, true, false])
        XCTAssertEqual(try evaluate1(.compare(.equal), a, b).bools, [false, true, false])
        let mask = try evaluate1(.compare(.greater), a, b)
        XCTAssertEqual(try evaluate1(.not, mask).bools, [true, true, true])
        let chosen = try evaluate1(.select, Tensor(uncheckedShape: [2, 1], storage: .bool([true, false])),
                                   Tensor(uncheckedShape: [3], floats: [1, 2, 3]), Tensor(uncheckedShape: [], floats: [-1]))
        assertClose(chosen, [2, 3], [1, 2, 3, -1, -1, -1])
        let ints = Tensor(uncheckedShape: [2], storage: .int64([7, -2]))
        XCTAssertEqual(try evaluate1(.compare(.less), ints, Tensor(uncheckedShape: [], storage: .int64([0]))).bools, [false, true])
        XCTAssertEqual(try evaluate1(.cast(to: .int64), Tensor(uncheckedShape: [4], floats: [2.7, -2.7, .nan, 1e30])).int64s, [2, -2, 0, .max])
        XCTAssertEqual(try evaluate1(.cast(to: .float32), ints).floats, [7, -2])
        XCTAssertEqual(try evaluate1(.cast(to: .bool), Tensor(uncheckedShape: [3], floats: [0, -0.5, .nan])).bools, [false, true, true])
        assertFoveaError(.unsupported, "Less compares two float32 or two int64 tensors") { try evaluate1(.compare(.less), a, ints) }
        assertFoveaError(.unsupported, "Not expects bool") { try evaluate1(.not, a) }
        assertFoveaError(.unsupported, "condition has data type float32; expected bool") { try evaluate1(.select, a, a, a) }
        assertFoveaError(.shapeMismatch, "X has data type float32 and Y int64") { try evaluate1(.select, mask, a, ints) }
    }
}

/// Sizes a file chooses are bounded before planning reserves memory for them.
final class OutputSizeLimitTests: XCTestCase {
    func testHugeExpandTileAndResizeAreTypedErrors() {
        let x = Tensor(uncheckedShape: [1, 1], floats: [1])
        assertFoveaError(.invalidAttribute, "shape [65536, 65536] gives an output of 65536×65536, more than 2147483648 elements") {
            try evaluate1(.expand(shape: [1 << 16, 1 << 16]), x)
        }
        assertFoveaError(.invalidAttribute, "repeats [4611686018427387904, 4] gives an output of 4611686018427387904×4, more than") {
            try evaluate1(.tile(repeats: [1 << 62, 4]), x)
        }
        assertFoveaError(.invalidAttribute, "repeats [4611686018427387904, 1] make 2×1 too large") {
            try evaluate1(.tile(repeats: [1 << 62, 1]), Tensor(uncheckedShape: [2, 1], floats: [1, 2]))
        }
        assertFoveaError(.invalidAttribute, "more than 2147483648 elements") {
            try evaluate1(.resize(ResizeAttributes(mode: .nearest, sizes: [1 << 20, 1 << 20])), x)
        }
    }
}
