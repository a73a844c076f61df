import XCTest
import FoveaCore
import FoveaTestSupport
@testable import FoveaPortableBackend

final class SIMDPoolingTests: XCTestCase {
    /// Max pooling compares the same values in the same tap order as the reference: bit-exact.
    static let maxPoolTolerance = Tolerance.exact
    /// Average pooling adds the same taps in the same order and divides by the
    /// same count, so it is exact in practice; 1e-6 leaves room for a compiler
    /// that reassociates.
    static let averagePoolTolerance = Tolerance(absolute: 1e-6, relative: 1e-6)
    /// Global average sums in 16 lanes instead of one running sum: reordered
    /// float32 additions over up to ~13k values.
    static let globalAverageTolerance = Tolerance(absolute: 1e-5, relative: 1e-5)

    func testRandomMaxPoolMatchesReferenceExactly() throws {
        for (index, c) in OperatorCases.poolingCases(max: true, seed: 101, count: 90, specials: true).enumerated() {
            try SIMDTestSupport.check(c.op, c.inputs, tolerance: Self.maxPoolTolerance, threads: 1 + index % 2, "case \(index): \(c.description)")
        }
    }

    func testRandomAveragePoolMatchesReference() throws {
        for (index, c) in OperatorCases.poolingCases(max: false, seed: 202, count: 90, specials: false).enumerated() {
            try SIMDTestSupport.check(c.op, c.inputs, tolerance: Self.averagePoolTolerance, threads: 1 + index % 2, "case \(index): \(c.description)")
        }
    }

    func testRandomGlobalPoolingMatchesReference() throws {
        for (index, c) in OperatorCases.globalPoolingCases(seed: 303, count: 30).enumerated() {
            try SIMDTestSupport.check(c.op, c.inputs, tolerance: index % 2 == 0 ? .exact : Self.globalAverageTolerance,
                                      threads: 1 + index % 3 / 2, "case \(index): \(c.description)")
        }
    }

    func testSqueezeNetShapes() throws {
        var g = SeededGenerator(seed: 404)
        let x = LayerCheck.randomTensor([1, 64, 111, 111], using: &g)
        let pool = PoolAttributes(kernelShape: [3, 3], strides: [2, 2], dilations: [], pads: [0, 0, 0, 0], ceilMode: true)
        let algorithm = try SIMDTestSupport.check(.maxPool(pool), [x], tolerance: Self.maxPoolTolerance, threads: 2, "SqueezeNet maxpool")
        XCTAssertEqual(algorithm, "maxpool 3x3/2 direct")
        let y = LayerCheck.randomTensor([1, 1000, 13, 13], using: &g)
        try SIMDTestSupport.check(.globalAveragePool, [y], tolerance: Self.globalAverageTolerance, threads: 2, "SqueezeNet global average")
    }

    /// NaN, ±inf and windows entirely in padding: the shared cases, exact.
    func testPoolingSpecialCasesAgreeWithTheReference() throws {
        for (op, input, description) in try LayerCheck.poolingSpecialCases() {
            try SIMDTestSupport.check(op, [input], tolerance: .exact, description)
        }
    }

    func testOneAndTwoThreadsGiveIdenticalResults() throws {
        var g = SeededGenerator(seed: 505)
        let x = LayerCheck.randomTensor([3, 13, 37, 37], using: &g)
        let a = PoolAttributes(kernelShape: [3, 2], strides: [2, 3], dilations: [1, 2], pads: [1, 0, 2, 1], ceilMode: true)
        try SIMDTestSupport.checkThreadIndependence(.maxPool(a), [x], "maxpool")
        try SIMDTestSupport.checkThreadIndependence(.averagePool(a), [x], "avgpool")
        try SIMDTestSupport.checkThreadIndependence(.globalAveragePool, [x], "global average")
    }

    func testDeclinesWhatItDoesNotRun() {
        let pool = PoolAttributes(kernelShape: [3, 3], strides: [], dilations: [], pads: [])
        XCTAssertTrue(SIMDTestSupport.supports(.maxPool(pool), [TensorType(.float32, [1, 2, 9, 9])]))
        for (op, inputs, outputCount, reason) in OperatorCases.poolingNodesToDecline {
            XCTAssertFalse(SIMDTestSupport.supports(op, inputs, outputCount: outputCount), reason)
        }
    }

    func testRunRejectsAnInputOfAnotherShape() throws {
        let pool = PoolAttributes(kernelShape: [2, 2], strides: [], dilations: [], pads: [])
        let (step, planned) = try SIMDTestSupport.prepare(.maxPool(pool), [Tensor(shape: [1, 2, 5, 5], repeating: 1)])
        XCTAssertThrowsError(try step.run([Tensor(shape: [1, 2, 6, 5], repeating: 1)], planned: planned, context: RunContext(threads: 1))) { error in
            XCTAssertEqual((error as? FoveaError)?.kind, .shapeMismatch)
        }
        XCTAssertThrowsError(try step.run([try Tensor(shape: [1, 2, 5, 5], int64s: [Int64](repeating: 0, count: 50))],
                                          planned: planned, context: RunContext(threads: 1))) { error in
            XCTAssertEqual((error as? FoveaError)?.kind, .unsupported)
        }
        for missing in [[nil], []] as [[Tensor?]] {
            XCTAssertThrowsError(try step.run(missing, planned: planned, context: RunContext(threads: 1))) { error in
                XCTAssertEqual((error as? FoveaError)?.kind, .invalidArgument)
            }
        }
    }
}
