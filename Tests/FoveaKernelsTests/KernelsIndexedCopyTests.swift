import XCTest
import FoveaCore
import FoveaTestSupport
@testable import FoveaKernelsBackend

/// Slice and Gather (constant indices) on the kernels backend equal the
/// reference bit for bit: steps of 1 and more, negative steps and bounds,
/// clamped ends, empty results, Gather on every axis with scalar, negative and
/// repeated indices; and what they decline.
final class KernelsIndexedCopyTests: XCTestCase {
    private let exact = Tolerance(absolute: 0, relative: 0)

    func testSlicesMatchTheReference() throws {
        var generator = SeededGenerator(seed: 51)
        let cases: [([Int], Op)] = [
            ([1, 56, 56, 96], .slice(starts: [3], ends: [Int.max], axes: [1], steps: nil)),
            ([1, 56, 56, 96], .slice(starts: [-3], ends: [56], axes: [2], steps: nil)),
            ([4, 9, 7], .slice(starts: [1, 2, 0], ends: [3, 9, 7], axes: nil, steps: [1, 3, 2])),
            ([5, 6], .slice(starts: [-1], ends: [-100], axes: [-1], steps: [-2])),
            ([5, 6], .slice(starts: [4], ends: [2], axes: [0], steps: [1])),
            ([8], .slice(starts: [2], ends: [7], axes: nil, steps: nil)),
        ]
        for (shape, op) in cases {
            let x = LayerCheck.randomTensorWithSpecials(shape, using: &generator)
            for threads in [1, 2] {
                let algorithm = try KernelsTestSupport.check(op, [x], tolerance: exact, threads: threads, "\(op) of \(shape)")
                XCTAssertEqual(algorithm, "indexed copy")
            }
        }
    }

    func testGathersMatchTheReference() throws {
        var generator = SeededGenerator(seed: 52)
        let cases: [([Int], Int, [Int], [Int64])] = [
            ([3, 12, 197, 64], 0, [], [1]), ([3, 12, 197, 64], 0, [], [-1]), ([4, 5, 6], 1, [2, 2], [4, 0, -2, 4]),
            ([4, 5, 6], 2, [3], [5, 0, 5]), ([7], 0, [1], [3]), ([2, 3], -1, [], [2]),
        ]
        for (shape, axis, indexShape, values) in cases {
            let x = LayerCheck.randomTensorWithSpecials(shape, using: &generator)
            let indices = try Tensor(shape: indexShape, int64s: values)
            let algorithm = try KernelsTestSupport.check(.gather(axis: axis), [x, indices], constants: [1], tolerance: exact,
                                                         "gather \(values) on axis \(axis) of \(shape)")
            XCTAssertEqual(algorithm, "indexed copy")
        }
    }

    func testDeclinesRunTimeOrOutOfRangeIndicesAndOtherTypes() throws {
        var generator = SeededGenerator(seed: 53)
        let x = LayerCheck.randomTensor([4, 5], using: &generator)
        let runTime = try LayerCheck.nodeContext(.gather(axis: 0), [x, try Tensor(shape: [1], int64s: [1])], constants: [])
        XCTAssertFalse(KernelsBackend().supports(runTime))
        let outside = try LayerCheck.nodeContext(.gather(axis: 0), [x, try Tensor(shape: [1], int64s: [4])], constants: [1])
        XCTAssertFalse(KernelsBackend().supports(outside))
        XCTAssertFalse(KernelsTestSupport.supports(.slice(starts: [0], ends: [2], axes: [0], steps: nil), [TensorType(.int64, [4])]))
    }
}
