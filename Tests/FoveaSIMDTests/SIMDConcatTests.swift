import XCTest
import FoveaCore
import FoveaTestSupport
@testable import FoveaPortableBackend

final class SIMDConcatTests: XCTestCase {
    /// Concat copies elements: exact.
    static let concatTolerance = Tolerance.exact

    func testRandomConcatMatchesReferenceExactly() throws {
        for (index, c) in OperatorCases.concatCases(seed: 51, count: 40).enumerated() {
            try SIMDTestSupport.check(c.op, c.inputs, tolerance: Self.concatTolerance, threads: 1 + index % 2, "case \(index): \(c.description)")
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
