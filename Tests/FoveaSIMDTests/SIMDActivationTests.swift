import XCTest
import FoveaCore
import FoveaTestSupport
@testable import FoveaPortableBackend

final class SIMDActivationTests: XCTestCase {
    /// Relu, LeakyRelu and Clip do the reference's comparisons and single multiply per lane: exact.
    static let comparisonTolerance = Tolerance.exact
    /// HardSigmoid and HardSwish repeat the reference's operations in order
    /// (exact in practice); 1e-6 allows for a compiler that contracts a*b+c.
    static let arithmeticTolerance = Tolerance(absolute: 1e-7, relative: 1e-6)
    /// Sigmoid (the C kernels' fovea_sigmoid_f32) is within 2 ulp; the absolute part covers
    /// results in the subnormal range.
    static let sigmoidTolerance = Tolerance(absolute: 1e-37, relative: 1e-6)

    func testRandomActivationsMatchReference() throws {
        for (index, c) in OperatorCases.activationCases(seed: 11, count: 84).enumerated() {
            let tolerance: Tolerance
            switch c.op {
            case .sigmoid: tolerance = Self.sigmoidTolerance
            case .hardSigmoid, .hardSwish: tolerance = Self.arithmeticTolerance
            default: tolerance = Self.comparisonTolerance
            }
            try SIMDTestSupport.check(c.op, c.inputs, tolerance: tolerance, threads: 1 + index % 2, "case \(index): \(c.description)")
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
