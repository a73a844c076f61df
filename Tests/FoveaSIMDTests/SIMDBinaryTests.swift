import XCTest
import FoveaCore
import FoveaTestSupport
@testable import FoveaPortableBackend

final class SIMDBinaryTests: XCTestCase {
    /// One IEEE operation per element, as in the reference: exact.
    static let binaryTolerance = Tolerance.exact

    func testRandomBinaryOpsMatchReferenceExactly() throws {
        var g = SeededGenerator(seed: 21)
        let ops: [Op] = [.add, .sub, .mul, .div, .maximum, .minimum, .pow]
        let pairs = OperatorCases.broadcastShapePairs
        for index in 0..<(pairs.count * ops.count) {
            let (aShape, bShape) = pairs[index % pairs.count]
            let a = LayerCheck.randomTensorWithSpecials(aShape, using: &g)
            let b = LayerCheck.randomTensorWithSpecials(bShape, using: &g)
            let op = ops[index / pairs.count % ops.count]
            try SIMDTestSupport.check(op, [a, b], tolerance: Self.binaryTolerance, threads: 1 + index % 2,
                                      "case \(index): \(op.typeName) \(aShape.shapeDescription) with \(bShape.shapeDescription)")
        }
    }

    func testRandomPReluMatchesReference() throws {
        var g = SeededGenerator(seed: 22)
        let pairs: [([Int], [Int])] = [([3, 13, 7, 7], [13, 1, 1]), ([1, 5, 37, 37], [5, 1, 1]), ([3, 5, 7], [7]),
                                       ([3, 5, 7], []), ([2, 3, 7, 7], [2, 3, 7, 7]), ([1, 13, 7, 7], [1, 13, 1, 1])]
        for index in 0..<18 {
            let (xShape, slopeShape) = pairs[index % pairs.count]
            let x = LayerCheck.randomTensorWithSpecials(xShape, using: &g)
            let slope = LayerCheck.randomTensor(slopeShape, in: -1...1, using: &g)
            try SIMDTestSupport.check(.prelu, [x, slope], tolerance: Self.binaryTolerance, threads: 1 + index % 2,
                                      "PRelu case \(index): \(xShape.shapeDescription) slope \(slopeShape.shapeDescription)")
        }
    }

    func testRandomSumMatchesReference() throws {
        var g = SeededGenerator(seed: 23)
        let groups: [[[Int]]] = [[[3, 5, 7]], [[3, 5, 7], [3, 5, 7]], [[3, 5, 7], [7], [5, 1], []],
                                 [[1, 13, 1, 1], [3, 13, 7, 7], [3, 13, 7, 7]], [[5, 1], [1, 37], [5, 37]]]
        for index in 0..<15 {
            let shapes = groups[index % groups.count]
            let inputs = shapes.map { LayerCheck.randomTensor($0, using: &g) }
            try SIMDTestSupport.check(.sum, inputs, tolerance: Self.binaryTolerance, threads: 1 + index % 2,
                                      "Sum case \(index): \(shapes.map(\.shapeDescription))")
        }
    }

    func testBroadcastPlanKinds() throws {
        XCTAssertEqual(try SIMDBroadcastPlan(a: [2, 3, 4], b: [2, 3, 4], output: [2, 3, 4]).kind, "same-shape")
        XCTAssertEqual(try SIMDBroadcastPlan(a: [2, 3, 4], b: [], output: [2, 3, 4]).kind, "scalar")
        let perChannel = try SIMDBroadcastPlan(a: [2, 3, 4, 5], b: [3, 1, 1], output: [2, 3, 4, 5])
        XCTAssertEqual(perChannel.kind, "per-channel")
        XCTAssertEqual(perChannel.inner, 20)
        XCTAssertEqual(perChannel.bStep, 0)
        XCTAssertEqual(try SIMDBroadcastPlan(a: [7, 1], b: [1, 9], output: [7, 9]).kind, "broadcast")
        XCTAssertThrowsError(try SIMDBroadcastPlan(a: [7, 2], b: [3], output: [7, 3]))
    }

    func testOneAndTwoThreadsGiveIdenticalResults() throws {
        var g = SeededGenerator(seed: 24)
        let a = LayerCheck.randomTensor([3, 13, 37, 37], using: &g)
        let b = LayerCheck.randomTensor([13, 1, 1], using: &g)
        try SIMDTestSupport.checkThreadIndependence(.add, [a, a], "same-shape add")
        try SIMDTestSupport.checkThreadIndependence(.mul, [a, b], "per-channel mul")
        try SIMDTestSupport.checkThreadIndependence(.div, [b, a], "per-channel div")
    }

    func testDeclinesNonFloatAndRejectsWrongInputs() throws {
        XCTAssertFalse(SIMDTestSupport.supports(.add, [TensorType(.int64, [3]), TensorType(.int64, [3])]))
        XCTAssertFalse(SIMDTestSupport.supports(.add, [TensorType(.float32, [3]), TensorType(.int64, [3])]))
        XCTAssertFalse(SIMDTestSupport.supports(.add, [TensorType(.float32, [3]), TensorType(.float32, [4])]))
        let a = Tensor(shape: [2, 3], repeating: 1)
        let (step, planned) = try SIMDTestSupport.prepare(.add, [a, a])
        XCTAssertThrowsError(try step.run([a], planned: planned, context: RunContext(threads: 1))) { error in
            XCTAssertEqual((error as? FoveaError)?.kind, .invalidArgument)
        }
        XCTAssertThrowsError(try step.run([a, Tensor(shape: [3, 2], repeating: 1)], planned: planned, context: RunContext(threads: 1))) { error in
            XCTAssertEqual((error as? FoveaError)?.kind, .shapeMismatch)
        }
    }
}
