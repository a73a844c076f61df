import XCTest
import FoveaCore
import FoveaTestSupport
@testable import FoveaSIMD

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

    /// Random 2-D pooling geometry whose padded input fits the dilated kernel.
    static func randomPooling(_ g: inout SeededGenerator) -> (shape: [Int], attributes: PoolAttributes) {
        while true {
            let sizes = [1, 7, 7, 37, 37, 12, 113]
            let height = Int.random(in: 0..<20, using: &g) == 0 ? 113 : LayerCheck.pick(Array(sizes.dropLast()), &g)
            let width = height == 113 ? 37 : LayerCheck.pick(Array(sizes.dropLast()), &g)
            let shape = [LayerCheck.pick([1, 3], &g), LayerCheck.pick([1, 3, 5, 13], &g), height, width]
            let kernel = [Int.random(in: 1...4, using: &g), Int.random(in: 1...4, using: &g)]
            let strides = [Int.random(in: 1...3, using: &g), Int.random(in: 1...3, using: &g)]
            let dilations = Int.random(in: 0..<4, using: &g) == 0 ? [Int.random(in: 1...2, using: &g), Int.random(in: 1...3, using: &g)] : [1, 1]
            // Mostly pads below the kernel; sometimes larger (windows wholly in the padding).
            let padLimit = Int.random(in: 0..<8, using: &g) == 0 ? 4 : 2
            let pads = (0..<4).map { _ in Int.random(in: 0...padLimit, using: &g) }
            let autoPad = LayerCheck.pick([AutoPad.notSet, .notSet, .notSet, .notSet, .valid, .sameUpper, .sameLower], &g)
            let attributes = PoolAttributes(kernelShape: kernel, strides: strides, dilations: dilations, pads: pads,
                                            autoPad: autoPad, ceilMode: Bool.random(using: &g),
                                            countIncludePad: Bool.random(using: &g))
            if (try? SpatialGeometry(inputSize: [height, width], pooling: attributes)) != nil {
                return (shape, attributes)
            }
        }
    }

    static func describe(_ shape: [Int], _ a: PoolAttributes) -> String {
        "x \(shape.shapeDescription) kernel \(a.kernelShape) strides \(a.strides) dilations \(a.dilations) pads \(a.pads) \(a.autoPad.rawValue) ceil \(a.ceilMode) includePad \(a.countIncludePad)"
    }

    func testRandomMaxPoolMatchesReferenceExactly() throws {
        var g = SeededGenerator(seed: 101)
        for index in 0..<90 {
            let (shape, attributes) = Self.randomPooling(&g)
            let x = LayerCheck.randomTensorWithSpecials(shape, using: &g)
            try SIMDTestSupport.check(.maxPool(attributes), [x], tolerance: Self.maxPoolTolerance,
                                      threads: 1 + index % 2, "MaxPool case \(index): \(Self.describe(shape, attributes))")
        }
    }

    func testRandomAveragePoolMatchesReference() throws {
        var g = SeededGenerator(seed: 202)
        for index in 0..<90 {
            let (shape, attributes) = Self.randomPooling(&g)
            let x = LayerCheck.randomTensor(shape, using: &g)
            try SIMDTestSupport.check(.averagePool(attributes), [x], tolerance: Self.averagePoolTolerance,
                                      threads: 1 + index % 2, "AveragePool case \(index): \(Self.describe(shape, attributes))")
        }
    }

    func testRandomGlobalPoolingMatchesReference() throws {
        var g = SeededGenerator(seed: 303)
        for index in 0..<30 {
            let spatial = LayerCheck.pick([[], [1], [7, 7], [37, 37], [1, 113], [5, 3, 2]], &g)
            let shape = [LayerCheck.pick([1, 3], &g), LayerCheck.pick([1, 5, 13, 17], &g)] + spatial
            if index % 2 == 0 {
                let x = LayerCheck.randomTensorWithSpecials(shape, using: &g)
                try SIMDTestSupport.check(.globalMaxPool, [x], tolerance: .exact, threads: 1 + index % 3 / 2,
                                          "GlobalMaxPool case \(index): x \(shape.shapeDescription)")
            } else {
                let x = LayerCheck.randomTensor(shape, using: &g)
                try SIMDTestSupport.check(.globalAveragePool, [x], tolerance: Self.globalAverageTolerance, threads: 1 + index % 3 / 2,
                                          "GlobalAveragePool case \(index): x \(shape.shapeDescription)")
            }
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
        let x = TensorType(.float32, [1, 2, 9, 9])
        XCTAssertTrue(SIMDTestSupport.supports(.maxPool(pool), [x]))
        XCTAssertFalse(SIMDTestSupport.supports(.maxPool(pool), [x], outputCount: 2), "MaxPool with Indices")
        XCTAssertFalse(SIMDTestSupport.supports(.maxPool(PoolAttributes(kernelShape: [3], strides: [], dilations: [], pads: [])),
                                                [TensorType(.float32, [1, 2, 9])]), "1-D pooling")
        XCTAssertFalse(SIMDTestSupport.supports(.averagePool(PoolAttributes(kernelShape: [3, 3, 3], strides: [], dilations: [], pads: [])),
                                                [TensorType(.float32, [1, 2, 9, 9, 9])]), "3-D pooling")
        XCTAssertFalse(SIMDTestSupport.supports(.maxPool(pool), [TensorType(.int64, [1, 2, 9, 9])]), "int64 input")
        XCTAssertFalse(SIMDTestSupport.supports(.globalAveragePool, [TensorType(.int64, [1, 2, 9, 9])]), "int64 input")
        XCTAssertFalse(SIMDTestSupport.supports(.maxPool(PoolAttributes(kernelShape: [30, 3], strides: [], dilations: [], pads: [])), [x]),
                       "kernel larger than the input")
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
