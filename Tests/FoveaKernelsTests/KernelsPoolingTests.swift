import XCTest
import FoveaCore
import FoveaTestSupport
@testable import FoveaKernelsBackend

/// MaxPool, AveragePool, GlobalAveragePool and GlobalMaxPool on the kernels
/// backend against the reference, on the shared pooling families.
final class KernelsPoolingTests: XCTestCase {
    /// Max pooling compares in the reference's tap order from -FLT_MAX (fovea_kernels.h): bit-exact.
    static let maxPoolTolerance = Tolerance.exact
    /// Average pooling adds the taps in float32 from +0 (fovea_kernels.h); the
    /// reference sums in Double and rounds once (issue 11), so they differ by
    /// the kernel's rounding over at most 16 taps: a few ulps.
    static let averagePoolTolerance = Tolerance(absolute: 1e-6, relative: 1e-6)
    /// The C kernel sums each plane in double, as the reference does; the
    /// SIMD backend sums in 16 float lanes, within this over up to 4181 values in [-4, 4].
    static let globalAverageTolerance = Tolerance(absolute: 1e-5, relative: 1e-5)

    func testRandomMaxPoolMatchesReferenceExactly() throws {
        for (index, c) in OperatorCases.poolingCases(max: true, seed: 101, count: 60, specials: true).enumerated() {
            let algorithm = try KernelsTestSupport.check(c.op, c.inputs, tolerance: Self.maxPoolTolerance, threads: 1 + index % 2,
                                                         "case \(index): \(c.description)")
            XCTAssertTrue(algorithm.hasPrefix("maxpool ") && algorithm.hasSuffix(KernelsBackend.isa), algorithm)
        }
    }

    /// Finite inputs, then inputs with NaN and ±inf (they propagate, summed, as in the reference).
    func testRandomAveragePoolMatchesReference() throws {
        // The kernel adds float32 taps: a window holding two ±FLT_MAX of one sign overflows to
        // ±inf where the reference's Double mean is finite (a limitation of the kernel that the
        // Double reference shows). The special values kept here are NaN, ±inf and ±0.
        let specials = OperatorCases.poolingCases(max: false, seed: 203, count: 12, specials: true).map { c in
            (c, c.inputs.map { x in
                x.replacingFloats((x.floats ?? []).map { abs($0) == .greatestFiniteMagnitude ? ($0 > 0 ? 1e30 : -1e30) : $0 })
            })
        }
        let cases = OperatorCases.poolingCases(max: false, seed: 202, count: 60, specials: false).map { ($0, $0.inputs) } + specials
        for (index, (c, inputs)) in cases.enumerated() {
            let algorithm = try KernelsTestSupport.check(c.op, inputs, tolerance: Self.averagePoolTolerance, threads: 1 + index % 2,
                                                         "case \(index): \(c.description)")
            XCTAssertTrue(algorithm.hasPrefix("avgpool ") && algorithm.hasSuffix(KernelsBackend.isa), algorithm)
        }
    }

    func testRandomGlobalPoolingMatchesReference() throws {
        for (index, c) in OperatorCases.globalPoolingCases(seed: 303, count: 30).enumerated() {
            try KernelsTestSupport.check(c.op, c.inputs, tolerance: index % 2 == 0 ? .exact : Self.globalAverageTolerance,
                                         threads: 1 + index % 3 / 2, "case \(index): \(c.description)")
        }
    }

    /// NaN, ±inf and windows entirely in padding: the shared cases, exact.
    func testPoolingSpecialCasesAgreeWithTheReference() throws {
        for (op, input, description) in try LayerCheck.poolingSpecialCases() {
            try KernelsTestSupport.check(op, [input], tolerance: .exact, description)
            try KernelsTestSupport.check(op, [input], tolerance: .exact, threads: 2, description)
        }
    }

    func testSqueezeNetShapes() throws {
        var g = SeededGenerator(seed: 404)
        let x = LayerCheck.randomTensor([1, 64, 111, 111], using: &g)
        let pool = PoolAttributes(kernelShape: [3, 3], strides: [2, 2], dilations: [], pads: [0, 0, 0, 0], ceilMode: true)
        let algorithm = try KernelsTestSupport.check(.maxPool(pool), [x], tolerance: Self.maxPoolTolerance, threads: 2, "SqueezeNet maxpool")
        XCTAssertEqual(algorithm, "maxpool 3x3s2 \(KernelsBackend.isa)")
        let y = LayerCheck.randomTensor([1, 1000, 13, 13], using: &g)
        let global = try KernelsTestSupport.check(.globalAveragePool, [y], tolerance: Self.globalAverageTolerance, threads: 2,
                                                  "SqueezeNet global average")
        XCTAssertEqual(global, "global avgpool \(KernelsBackend.isa)")
    }

    /// ReduceMean over the last axes (ShuffleNet's `mean([2, 3])`) runs as a
    /// global average pool of the leading axes' rows; other axes and reductions
    /// stay on the reference.
    func testReduceMeanOverTrailingAxes() throws {
        var g = SeededGenerator(seed: 606)
        let x = LayerCheck.randomTensor([2, 24, 7, 5], using: &g)
        for (axes, keepDims) in [([2, 3], false), ([-1, -2], true), ([3], true), ([1, 2, 3], false), ([0, 1, 2, 3], true)] {
            let op = Op.reduce(ReduceAttributes(.mean, axes: axes, keepDims: keepDims))
            let algorithm = try KernelsTestSupport.check(op, [x], tolerance: Self.globalAverageTolerance, threads: 2,
                                                         "ReduceMean axes \(axes) keepdims \(keepDims)")
            XCTAssertEqual(algorithm, "global avgpool \(KernelsBackend.isa)")
        }
        let type = [TensorType(.float32, [2, 24, 7, 5])]
        XCTAssertFalse(KernelsTestSupport.supports(.reduce(ReduceAttributes(.mean, axes: [1])), type), "not trailing")
        XCTAssertFalse(KernelsTestSupport.supports(.reduce(ReduceAttributes(.mean, axes: [1, 3])), type), "not contiguous")
        XCTAssertFalse(KernelsTestSupport.supports(.reduce(ReduceAttributes(.mean, axes: [3, -1])), type), "repeated axis")
        XCTAssertFalse(KernelsTestSupport.supports(.reduce(ReduceAttributes(.mean, axes: [])), type), "noop_with_empty_axes")
        XCTAssertFalse(KernelsTestSupport.supports(.reduce(ReduceAttributes(.mean, axes: nil)), type), "every axis (nil)")
        XCTAssertFalse(KernelsTestSupport.supports(.reduce(ReduceAttributes(.sum, axes: [2, 3])), type), "ReduceSum")
        XCTAssertFalse(KernelsTestSupport.supports(.reduce(ReduceAttributes(.max, axes: [2, 3])), type), "ReduceMax")
    }

    /// Slice (ShuffleNet's channel split and others, unit and other steps)
    /// runs as the kernels' indexed copy, exactly as the reference.
    func testSlicesOfChannelSplitsMatchTheReference() throws {
        var g = SeededGenerator(seed: 707)
        let x = LayerCheck.randomTensorWithSpecials([3, 10, 6, 5], using: &g)
        let cases: [([Int], [Int], [Int]?, [Int]?)] = [
            ([0], [5], [1], nil), ([5], [10], [1], nil), ([1, 2], [3, -1], [0, 2], nil), ([-3], [100], [3], nil),
            ([0, 0, 0, 0], [3, 10, 6, 5], nil, nil), ([1, 1, 1], [2, 9, 5], [0, 1, 2], nil), ([2], [2], [1], nil),
            ([0], [10], [1], [2]), ([9], [0], [1], [-1]),
        ]
        for (starts, ends, axes, steps) in cases {
            let op = Op.slice(starts: starts, ends: ends, axes: axes, steps: steps)
            let algorithm = try KernelsTestSupport.check(op, [x], tolerance: .exact, "Slice \(starts) \(ends) \(axes ?? []) \(steps ?? [])")
            XCTAssertEqual(algorithm, "indexed copy")
        }
    }

    /// The planes are shared out among threads; each plane is computed the same way.
    func testOneAndTwoThreadsGiveIdenticalResults() throws {
        var g = SeededGenerator(seed: 505)
        let x = LayerCheck.randomTensorWithSpecials([3, 13, 37, 37], using: &g)
        let a = PoolAttributes(kernelShape: [3, 2], strides: [2, 3], dilations: [1, 2], pads: [1, 0, 2, 1], ceilMode: true)
        let dense = PoolAttributes(kernelShape: [3, 3], strides: [1, 1], dilations: [], pads: [1, 1, 1, 1], countIncludePad: true)
        try KernelsTestSupport.checkThreadIndependence(.maxPool(a), [x], "maxpool")
        try KernelsTestSupport.checkThreadIndependence(.averagePool(a), [x], "avgpool")
        try KernelsTestSupport.checkThreadIndependence(.averagePool(dense), [x], "avgpool 3x3 count_include_pad")
        try KernelsTestSupport.checkThreadIndependence(.globalAveragePool, [x], "global average")
        try KernelsTestSupport.checkThreadIndependence(.globalMaxPool, [x], "global max")
    }

    func testDeclinesWhatItDoesNotRun() {
        let pool = PoolAttributes(kernelShape: [3, 3], strides: [], dilations: [], pads: [])
        XCTAssertTrue(KernelsTestSupport.supports(.maxPool(pool), [TensorType(.float32, [1, 2, 9, 9])]))
        XCTAssertTrue(KernelsTestSupport.supports(.averagePool(pool), [TensorType(.float32, [1, 2, 9, 9])]))
        for (op, inputs, outputCount, reason) in OperatorCases.poolingNodesToDecline {
            XCTAssertFalse(KernelsTestSupport.supports(op, inputs, outputCount: outputCount), reason)
        }
        XCTAssertFalse(KernelsTestSupport.supports(.globalMaxPool, [TensorType(.bool, [1, 2, 9, 9])]), "bool input")
    }
}
