import XCTest
import FoveaCore
import FoveaTestSupport
@testable import FoveaPortableBackend

final class SIMDBatchNormalizationTests: XCTestCase {
    /// Coefficients are computed as the reference does and applied as
    /// `x * a + b`: exact in practice; 1e-6 allows a contracted multiply-add.
    static let batchNormalizationTolerance = Tolerance(absolute: 1e-6, relative: 1e-6)

    func testRandomBatchNormalizationMatchesReference() throws {
        var g = SeededGenerator(seed: 31)
        let shapes: [[Int]] = [[1, 5], [3, 13, 7, 7], [1, 17, 37, 37], [3, 3, 113], [1, 6, 1, 1], [3, 5, 7, 3, 2]]
        for index in 0..<24 {
            let shape = shapes[index % shapes.count]
            let channels = shape[1]
            let x = LayerCheck.randomTensor(shape, using: &g)
            let parameters = [LayerCheck.randomTensor([channels], in: -2...2, using: &g),
                              LayerCheck.randomTensor([channels], in: -2...2, using: &g),
                              LayerCheck.randomTensor([channels], in: -2...2, using: &g),
                              LayerCheck.randomTensor([channels], in: 0...3, using: &g)]
            let constants: Set<Int> = index % 3 == 0 ? [] : [1, 2, 3, 4]
            let algorithm = try SIMDTestSupport.check(.batchNormalization(epsilon: 1e-5), [x] + parameters, constants: constants,
                                                      tolerance: Self.batchNormalizationTolerance, threads: 1 + index % 2,
                                                      "case \(index): x \(shape.shapeDescription) constants \(constants.sorted())")
            XCTAssertEqual(algorithm, constants.isEmpty ? "vector" : "vector folded")
        }
    }

    func testOneAndTwoThreadsGiveIdenticalResults() throws {
        var g = SeededGenerator(seed: 32)
        let x = LayerCheck.randomTensor([3, 13, 37, 37], using: &g)
        let p = (0..<4).map { _ in LayerCheck.randomTensor([13], in: 0.5...2, using: &g) }
        try SIMDTestSupport.checkThreadIndependence(.batchNormalization(epsilon: 1e-3), [x] + p, "batch norm")
    }

    func testDeclinesWrongParameterShapesAndTypes() {
        let x = TensorType(.float32, [1, 4, 3, 3]), p = TensorType(.float32, [4])
        XCTAssertTrue(SIMDTestSupport.supports(.batchNormalization(epsilon: 1e-5), [x, p, p, p, p]))
        XCTAssertFalse(SIMDTestSupport.supports(.batchNormalization(epsilon: 1e-5), [x, p, p, p, TensorType(.float32, [3])]))
        XCTAssertFalse(SIMDTestSupport.supports(.batchNormalization(epsilon: 1e-5), [x, p, p, p, TensorType(.int64, [4])]))
    }
}
