import XCTest
import FoveaCore
import FoveaTestSupport
@testable import FoveaSIMD

final class SIMDActivationTests: XCTestCase {
    /// Relu, LeakyRelu and Clip do the reference's comparisons and single multiply per lane: exact.
    static let comparisonTolerance = Tolerance.exact
    /// HardSigmoid and HardSwish repeat the reference's operations in order
    /// (exact in practice); 1e-6 allows for a compiler that contracts a*b+c.
    static let arithmeticTolerance = Tolerance(absolute: 1e-7, relative: 1e-6)
    /// Sigmoid's vector exp is within ~2 ulp of expf; the absolute part covers
    /// results in the subnormal range.
    static let sigmoidTolerance = Tolerance(absolute: 1e-37, relative: 1e-6)

    static let shapes: [[Int]] = [[1], [7], [3, 5], [1, 13, 7, 7], [3, 5, 37], [2, 3, 37, 37], [1, 17, 113]]

    func testRandomActivationsMatchReference() throws {
        var g = SeededGenerator(seed: 11)
        for index in 0..<84 {
            let shape = LayerCheck.pick(Self.shapes, &g)
            let x = LayerCheck.randomTensorWithSpecials(shape, using: &g)
            let alpha = Float.random(in: -1...1, using: &g), beta = Float.random(in: -1...1, using: &g)
            let lower: Float? = Bool.random(using: &g) ? Float.random(in: -3...0, using: &g) : nil
            let upper: Float? = Bool.random(using: &g) ? Float.random(in: -1...3, using: &g) : nil
            let cases: [(Op, Tolerance)] = [
                (.relu, Self.comparisonTolerance),
                (.leakyRelu(alpha: alpha), Self.comparisonTolerance),
                (.clip(min: lower, max: upper), Self.comparisonTolerance),
                (.sigmoid, Self.sigmoidTolerance),
                (.hardSigmoid(alpha: alpha, beta: beta), Self.arithmeticTolerance),
                (.hardSwish, Self.arithmeticTolerance),
            ]
            let (op, tolerance) = cases[index % cases.count]
            try SIMDTestSupport.check(op, [x], tolerance: tolerance, threads: 1 + index % 2,
                                      "case \(index): \(op) on \(shape.shapeDescription)")
        }
    }

    func testSigmoidOverTheWholeRange() throws {
        let values = stride(from: Float(-110), through: 110, by: 0.37).map { $0 } + [-.infinity, .infinity, .nan, 0, -0.0, 88.7, -87.3, -103.9]
        try SIMDTestSupport.check(.sigmoid, [try Tensor(shape: [values.count], floats: values)],
                                  tolerance: Self.sigmoidTolerance, "sigmoid sweep")
    }

    func testVectorExpAgainstLibm() {
        for x in stride(from: Float(-105), through: 89, by: 0.173) {
            let vector = SIMDVectorMath.exp(SIMD16<Float>(repeating: x))[3]
            let expected = Foundation.exp(x)
            XCTAssertTrue(Tolerance(absolute: 1e-44, relative: 3e-7).accepts(vector, expected), "exp(\(x)) = \(vector), expected \(expected)")
        }
        XCTAssertTrue(SIMDVectorMath.exp(SIMD16<Float>(repeating: .nan))[0].isNaN)
        XCTAssertEqual(SIMDVectorMath.exp(SIMD16<Float>(repeating: .infinity))[0], .infinity)
        XCTAssertEqual(SIMDVectorMath.exp(SIMD16<Float>(repeating: -.infinity))[0], 0)
    }

    func testClipWithCrossedBoundsAndOpenBounds() throws {
        var g = SeededGenerator(seed: 12)
        let x = LayerCheck.randomTensorWithSpecials([3, 37], using: &g)
        try SIMDTestSupport.check(.clip(min: 1, max: -1), [x], tolerance: .exact, "crossed bounds")
        try SIMDTestSupport.check(.clip(min: nil, max: nil), [x], tolerance: .exact, "open bounds")
        try SIMDTestSupport.check(.clip(min: 0, max: 6), [x], tolerance: .exact, "relu6")
    }

    func testOneAndTwoThreadsGiveIdenticalResults() throws {
        var g = SeededGenerator(seed: 13)
        let x = LayerCheck.randomTensor([3, 13, 37, 37], using: &g)
        for op in [Op.relu, .sigmoid, .hardSwish, .leakyRelu(alpha: 0.1)] {
            try SIMDTestSupport.checkThreadIndependence(op, [x], "\(op)")
        }
    }

    func testEmptyTensor() throws {
        try SIMDTestSupport.check(.relu, [try Tensor(shape: [0, 3], floats: [])], tolerance: .exact, "empty")
    }

    func testDeclinesNonFloat() {
        XCTAssertTrue(SIMDTestSupport.supports(.relu, [TensorType(.float32, [2, 3])]))
        XCTAssertFalse(SIMDTestSupport.supports(.relu, [TensorType(.int64, [2, 3])]))
        XCTAssertFalse(SIMDTestSupport.supports(.sigmoid, [TensorType(.bool, [2, 3])]))
    }
}
