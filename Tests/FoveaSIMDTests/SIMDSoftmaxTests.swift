import XCTest
import FoveaCore
import FoveaTestSupport
@testable import FoveaPortableBackend

final class SIMDSoftmaxTests: XCTestCase {
    /// The vector exp is within ~2 ulp of expf (~1e-6 on short rows), and the
    /// sum runs in 16 lanes where the reference adds sequentially, whose own
    /// rounding drifts by ~2e-6 over rows of thousands (37×113 here).
    static let softmaxTolerance = Tolerance(absolute: 1e-9, relative: 1e-5)
    /// LogSoftmax subtracts log(sum): the sum's relative error becomes an
    /// absolute error, which matters where the result is near 0.
    static let logSoftmaxTolerance = Tolerance(absolute: 1e-5, relative: 1e-5)

    func testRandomSoftmaxMatchesReference() throws {
        var g = SeededGenerator(seed: 41)
        let shapes = OperatorCases.softmaxShapes
        for index in 0..<56 {
            let shape = shapes[index % shapes.count]
            let axis = Int.random(in: -shape.count..<shape.count, using: &g)
            let attributes = SoftmaxAttributes(axis: axis, coercedTo2D: Bool.random(using: &g))
            let x = LayerCheck.randomTensor(shape, in: -20...20, using: &g)
            let logarithm = index % 2 == 1
            try SIMDTestSupport.check(logarithm ? .logSoftmax(attributes) : .softmax(attributes), [x],
                                      tolerance: logarithm ? Self.logSoftmaxTolerance : Self.softmaxTolerance,
                                      threads: 1 + index / 2 % 2,
                                      "case \(index): \(logarithm ? "LogSoftmax" : "Softmax") \(shape.shapeDescription) axis \(axis) 2-D \(attributes.coercedTo2D)")
        }
    }

    func testSpecialValuesBehaveLikeTheReference() throws {
        let x = try Tensor(shape: [4, 3], floats: [.infinity, 1, 2, -.infinity, -.infinity, -.infinity, .nan, 1, 2, 1e30, -1e30, 0])
        for axis in [0, 1] {
            let a = SoftmaxAttributes(axis: axis, coercedTo2D: false)
            try SIMDTestSupport.check(.softmax(a), [x], tolerance: Self.softmaxTolerance, "softmax specials axis \(axis)")
            try SIMDTestSupport.check(.logSoftmax(a), [x], tolerance: Self.logSoftmaxTolerance, "log-softmax specials axis \(axis)")
        }
    }

    func testOneAndTwoThreadsGiveIdenticalResults() throws {
        var g = SeededGenerator(seed: 42)
        let x = LayerCheck.randomTensor([3, 13, 37, 37], using: &g)
        try SIMDTestSupport.checkThreadIndependence(.softmax(SoftmaxAttributes(axis: 1, coercedTo2D: false)), [x], "channel softmax")
        try SIMDTestSupport.checkThreadIndependence(.logSoftmax(SoftmaxAttributes(axis: -1, coercedTo2D: false)), [x], "row log-softmax")
    }

    func testDeclinesNonFloatAndBadAxis() {
        XCTAssertFalse(SIMDTestSupport.supports(.softmax(SoftmaxAttributes(axis: 1, coercedTo2D: false)), [TensorType(.int64, [2, 3])]))
        XCTAssertFalse(SIMDTestSupport.supports(.softmax(SoftmaxAttributes(axis: 2, coercedTo2D: false)), [TensorType(.float32, [2, 3])]))
    }
}
