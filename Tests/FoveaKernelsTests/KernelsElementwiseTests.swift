import XCTest
import Foundation
import FoveaCore
import FoveaTestSupport
@testable import FoveaKernelsBackend

/// Add, Sub, Mul and Div with broadcasting, ReLU, Clip, LeakyReLU, Sigmoid,
/// Softmax and LogSoftmax on the kernels backend against the reference.
final class KernelsElementwiseTests: XCTestCase {
    /// One IEEE operation per element, as in the reference (fovea_elementwise.h): exact.
    static let binaryTolerance = Tolerance.exact
    /// ReLU, Clip and LeakyReLU: the reference's comparisons and one multiply: exact.
    static let comparisonTolerance = Tolerance.exact
    /// The C sigmoid is within 2 ulp of the correctly rounded result, and
    /// within 2 units of 2⁻¹⁴⁹ where the result is subnormal (fovea_elementwise.h);
    /// the reference's expf-based formula adds about 2 ulp of its own.
    static let sigmoidTolerance = Tolerance(absolute: 6e-45, relative: 6e-7)

    /// The C softmax's written bound, (n + 12 + |x − m|)·2⁻²⁴ relative for an
    /// axis of n values, plus the reference's own: its sequential float sum
    /// drifts by up to n·2⁻²⁴, and expf and the division by a few ulp.
    static func softmaxTolerance(length: Int, spread: Float) -> Tolerance {
        Tolerance(absolute: 1e-38, relative: (2 * Float(length) + 16 + spread) * 0x1p-24)
    }

    /// The C log softmax's written bound, (n + 12)·2⁻²⁴·(1 + |y|) absolute,
    /// plus the reference's n·2⁻²⁴ of log(sum).
    static func logSoftmaxTolerance(length: Int) -> Tolerance {
        let bound = (2 * Float(length) + 16) * 0x1p-24
        return Tolerance(absolute: bound, relative: bound)
    }

    // MARK: Binary

    /// Every broadcast pattern of the shared pairs, with NaN, ±inf, ±0 and
    /// the largest floats, each of the seven operators (Max, Min, Pow too); the same-shape side
    /// also runs in place (LayerCheck, through the step's overwritableInput).
    func testEveryBroadcastPatternMatchesReferenceExactly() throws {
        var g = SeededGenerator(seed: 21)
        var inPlace = 0
        let extra: [([Int], [Int])] = [
            ([2, 3, 1, 4, 1, 5], [3, 2, 4, 6, 1]),       // rank 6, two-sided
            ([1, 1, 1, 1, 1, 7], [2, 1, 3, 1, 5, 7]),    // rank 6, a vector against everything
            ([2, 0, 3], [3]), ([0], []),                  // empty
        ]
        let pairs = OperatorCases.broadcastShapePairs + extra
        for (index, (aShape, bShape)) in pairs.enumerated() {
            for (k, op) in [Op.add, .sub, .mul, .div, .maximum, .minimum, .pow].enumerated() {
                let a = LayerCheck.randomTensorWithSpecials(aShape, using: &g)
                let b = LayerCheck.randomTensorWithSpecials(bShape, using: &g)
                let (step, context) = try KernelsTestSupport.prepare(op, [a, b])
                if let k = step.overwritableInput, [a, b][k].shape == context.outputTypes[0].shape { inPlace += 1 }
                let algorithm = try KernelsTestSupport.check(op, [a, b], tolerance: Self.binaryTolerance, threads: 1 + (index + k) % 2,
                                                             "\(op.typeName) \(aShape.shapeDescription) with \(bShape.shapeDescription)")
                XCTAssertEqual(algorithm, "\(op.typeName.lowercased()) broadcast \(KernelsBackend.isa)")
            }
        }
        XCTAssertGreaterThan(inPlace, 40, "the same-shape cases ran in place")
    }

    /// The in-place promise holds for the input the step names: running over
    /// input 0 when a is the output's shape, over input 1 when only b is.
    func testInPlaceOverEitherInput() throws {
        var g = SeededGenerator(seed: 25)
        let big = LayerCheck.randomTensor([2, 5, 7, 9], using: &g), channel = LayerCheck.randomTensor([5, 1, 1], using: &g)
        for (inputs, expected) in [([big, channel], 0), ([channel, big], 1), ([big, big], 0)] {
            let (step, context) = try KernelsTestSupport.prepare(.sub, inputs)
            XCTAssertEqual(step.overwritableInput, expected)
            let contiguous = try step.run(inputs, planned: context, context: RunContext(threads: 1))[0]
            let over = try LayerCheck.runByHand(step, inputs, planned: context, threads: 2, aliasInput: expected)
            LayerCheck.assertSameBits(over, contiguous, "Sub in place over input \(expected)")
        }
        let (step, _) = try KernelsTestSupport.prepare(.add, [LayerCheck.randomTensor([1, 5], using: &g), LayerCheck.randomTensor([5, 1], using: &g)])
        XCTAssertNil(step.overwritableInput, "no input has the output's shape")
    }

    func testBinaryOneAndTwoThreadsGiveIdenticalResults() throws {
        var g = SeededGenerator(seed: 24)
        let a = LayerCheck.randomTensor([2, 16, 48, 48], using: &g)
        let b = LayerCheck.randomTensor([16, 1, 1], using: &g)
        let row = LayerCheck.randomTensor([1, 48], using: &g)
        try KernelsTestSupport.checkThreadIndependence(.add, [a, a], "same-shape add")
        try KernelsTestSupport.checkThreadIndependence(.mul, [a, b], "per-channel mul")
        try KernelsTestSupport.checkThreadIndependence(.div, [b, a], "per-channel div")
        try KernelsTestSupport.checkThreadIndependence(.sub, [row, a], "row broadcast sub")
    }

    // MARK: Activations

    func testRandomActivationsMatchReference() throws {
        let cases = OperatorCases.activationCases(seed: 11, count: 56, kinds: [.relu, .leakyRelu, .clip, .sigmoid])
        for (index, c) in cases.enumerated() {
            let sigmoid: Bool
            if case .sigmoid = c.op { sigmoid = true } else { sigmoid = false }
            let algorithm = try KernelsTestSupport.check(c.op, c.inputs, tolerance: sigmoid ? Self.sigmoidTolerance : Self.comparisonTolerance,
                                                         threads: 1 + index / 4 % 2, "case \(index): \(c.description)")
            XCTAssertTrue(algorithm.hasSuffix(KernelsBackend.isa), algorithm)
        }
    }

    /// NaN, ±inf and ±0 through each activation give the reference's bits,
    /// not only values within a tolerance: ReLU maps NaN to +0 (the
    /// reference's `x > 0 ? x : 0`), -0 to +0, -inf to +0; Clip and LeakyReLU
    /// keep NaN; Sigmoid gives NaN, 1, 0 and 1/2.
    func testSpecialValuesGiveTheReferenceBits() throws {
        let specials: [Float] = [.nan, -.nan, .infinity, -.infinity, 0, -0.0, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
                                 .leastNonzeroMagnitude, -.leastNonzeroMagnitude, 1, -1]
        // 48 values: the SIMD bodies and the scalar tails both see every special.
        let values = specials + specials + specials + specials
        let x = try Tensor(shape: [values.count], floats: values)
        for op in [Op.relu, .clip(min: 0, max: 6), .clip(min: nil, max: 0.5), .clip(min: 1, max: -1), .clip(min: nil, max: nil),
                   .leakyRelu(alpha: 0.1), .leakyRelu(alpha: -2), .sigmoid] {
            let (step, context) = try KernelsTestSupport.prepare(op, [x])
            let actual = try XCTUnwrap(step.run([x], planned: context, context: RunContext(threads: 1))[0].floats)
            let expected = try XCTUnwrap(ReferenceBackend.evaluate(op, inputs: [x], outputTypes: context.outputTypes)[0].floats)
            for i in values.indices {
                // NaN payloads may differ (the sign of a NaN is not specified); anything else must be the same bits.
                let same = actual[i].isNaN ? expected[i].isNaN : actual[i].bitPattern == expected[i].bitPattern
                XCTAssertTrue(same, "\(op)(\(values[i])) = \(actual[i]), reference \(expected[i])")
            }
            if case .relu = op {
                XCTAssertEqual(actual[0].bitPattern, Float(0).bitPattern, "ReLU(NaN) is +0 as in the reference")
                XCTAssertEqual(actual[5].bitPattern, Float(0).bitPattern, "ReLU(-0) is +0 as in the reference")
            }
        }
    }

    func testSigmoidOverTheWholeRange() throws {
        let values = stride(from: Float(-110), through: 110, by: 0.37).map { $0 } + [-.infinity, .infinity, .nan, 0, -0.0, 88.7, -87.3, -103.9]
        try KernelsTestSupport.check(.sigmoid, [try Tensor(shape: [values.count], floats: values)],
                                     tolerance: Self.sigmoidTolerance, "sigmoid sweep")
    }

    func testActivationsOneAndTwoThreadsGiveIdenticalResults() throws {
        var g = SeededGenerator(seed: 13)
        let x = LayerCheck.randomTensorWithSpecials([2, 16, 48, 48], using: &g)
        for op in [Op.relu, .sigmoid, .clip(min: 0, max: 6), .leakyRelu(alpha: 0.1)] {
            try KernelsTestSupport.checkThreadIndependence(op, [x], "\(op)")
        }
    }

    func testEmptyTensor() throws {
        let empty = try Tensor(shape: [0, 3], floats: [])
        for op in [Op.relu, .sigmoid, .add] {
            try KernelsTestSupport.check(op, op.typeName == "Add" ? [empty, empty] : [empty], tolerance: .exact, "empty \(op.typeName)")
        }
    }

    // MARK: Softmax

    /// Every axis (signed), opset 13's one axis and the older coerced 2-D
    /// form, of the shared shapes; inputs in [-20, 20].
    func testSoftmaxOverEveryAxisMatchesReference() throws {
        var g = SeededGenerator(seed: 41)
        var index = 0
        for shape in OperatorCases.softmaxShapes {
            for axis in -shape.count..<shape.count {
                for coerced in [false, true] {
                    let attributes = SoftmaxAttributes(axis: axis, coercedTo2D: coerced)
                    let x = LayerCheck.randomTensor(shape, in: -20...20, using: &g)
                    let positive = axis < 0 ? axis + shape.count : axis
                    let length = coerced ? shape[positive...].reduce(1, *) : shape[positive]
                    let logarithm = index % 2 == 1
                    let op: Op = logarithm ? .logSoftmax(attributes) : .softmax(attributes)
                    let tolerance = logarithm ? Self.logSoftmaxTolerance(length: length) : Self.softmaxTolerance(length: length, spread: 40)
                    let algorithm = try KernelsTestSupport.check(op, [x], tolerance: tolerance, threads: 1 + index / 2 % 2,
                                                                 "\(op.typeName) \(shape.shapeDescription) axis \(axis) 2-D \(coerced)")
                    XCTAssertEqual(algorithm, "\(logarithm ? "logsoftmax" : "softmax") \(KernelsBackend.isa)")
                    index += 1
                }
            }
        }
    }

    /// -inf entries among finite ones give 0 (log: -inf); NaN, +inf, or a
    /// slice of -inf only make the slice NaN: as the reference, on each axis.
    func testSoftmaxSpecialValuesBehaveLikeTheReference() throws {
        let x = try Tensor(shape: [5, 3], floats: [.infinity, 1, 2, -.infinity, -.infinity, -.infinity, .nan, 1, 2, 1e30, -1e30, 0,
                                                    -.infinity, 3, -.infinity])
        for axis in [0, 1, -1] {
            for coerced in [false, true] {
                let a = SoftmaxAttributes(axis: axis, coercedTo2D: coerced)
                try KernelsTestSupport.check(.softmax(a), [x], tolerance: Self.softmaxTolerance(length: 15, spread: 0),
                                             "softmax specials axis \(axis) 2-D \(coerced)")
                try KernelsTestSupport.check(.logSoftmax(a), [x], tolerance: Self.logSoftmaxTolerance(length: 15),
                                             "log-softmax specials axis \(axis) 2-D \(coerced)")
            }
        }
        // A row with -inf among finite values: exactly 0 there, and the rest sums to 1.
        let row = try Tensor(shape: [1, 4], floats: [-.infinity, 0, -.infinity, 0])
        let (step, context) = try KernelsTestSupport.prepare(.softmax(SoftmaxAttributes(axis: 1, coercedTo2D: false)), [row])
        XCTAssertEqual(try step.run([row], planned: context, context: RunContext(threads: 1))[0].floats, [0, 0.5, 0, 0.5])
    }

    func testSoftmaxOneAndTwoThreadsGiveIdenticalResults() throws {
        var g = SeededGenerator(seed: 42)
        let x = LayerCheck.randomTensor([2, 16, 48, 48], using: &g)
        try KernelsTestSupport.checkThreadIndependence(.softmax(SoftmaxAttributes(axis: 1, coercedTo2D: false)), [x], "channel softmax")
        try KernelsTestSupport.checkThreadIndependence(.logSoftmax(SoftmaxAttributes(axis: -1, coercedTo2D: false)), [x], "row log-softmax")
        try KernelsTestSupport.checkThreadIndependence(.softmax(SoftmaxAttributes(axis: 1, coercedTo2D: true)), [x], "coerced softmax")
    }
}
