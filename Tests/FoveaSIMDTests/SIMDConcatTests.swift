import XCTest
import FoveaCore
import FoveaTestSupport
@testable import FoveaSIMD

final class SIMDConcatTests: XCTestCase {
    /// Concat copies elements: exact.
    static let concatTolerance = Tolerance.exact

    func testRandomConcatMatchesReferenceExactly() throws {
        var g = SeededGenerator(seed: 51)
        for index in 0..<40 {
            let rank = Int.random(in: 1...4, using: &g)
            let base = (0..<rank).map { _ in LayerCheck.pick([1, 3, 7, 13, 37], &g) }
            let axis = Int.random(in: 0..<rank, using: &g)
            let count = Int.random(in: 1...4, using: &g)
            let inputs = (0..<count).map { _ -> Tensor in
                var shape = base
                shape[axis] = LayerCheck.pick([0, 1, 5, 13, 64], &g)
                return LayerCheck.randomTensorWithSpecials(shape, using: &g)
            }
            let signedAxis = Bool.random(using: &g) ? axis : axis - rank
            try SIMDTestSupport.check(.concat(axis: signedAxis), inputs, tolerance: Self.concatTolerance, threads: 1 + index % 2,
                                      "case \(index): axis \(signedAxis) of \(inputs.map { $0.shape.shapeDescription })")
        }
    }

    func testSqueezeNetFireConcatAndThreads() throws {
        var g = SeededGenerator(seed: 52)
        let a = LayerCheck.randomTensor([1, 64, 55, 55], using: &g)
        let b = LayerCheck.randomTensor([1, 64, 55, 55], using: &g)
        let algorithm = try SIMDTestSupport.check(.concat(axis: 1), [a, b], tolerance: Self.concatTolerance, threads: 2, "fire concat")
        XCTAssertEqual(algorithm, "block copy")
        let c = LayerCheck.randomTensor([3, 13, 37, 37], using: &g)
        try SIMDTestSupport.checkThreadIndependence(.concat(axis: 2), [c, c], "concat axis 2")
    }

    func testDeclinesOtherDataTypes() {
        XCTAssertTrue(SIMDTestSupport.supports(.concat(axis: 0), [TensorType(.float32, [2]), TensorType(.float32, [3])]))
        XCTAssertFalse(SIMDTestSupport.supports(.concat(axis: 0), [TensorType(.int64, [2]), TensorType(.int64, [3])]))
        XCTAssertFalse(SIMDTestSupport.supports(.concat(axis: 0), [TensorType(.bool, [2])]))
        XCTAssertFalse(SIMDTestSupport.supports(.concat(axis: 1), [TensorType(.float32, [2, 2]), TensorType(.float32, [3, 2])]))
    }
}
