import XCTest
@testable import FoveaCore

/// MaxPool, AveragePool and the global poolings on cases worked out by hand
/// (or quoted from the ONNX operator documentation, whose examples use x = 1...16 or 1...25).
final class ReferencePoolingTests: XCTestCase {
    private func attributes(_ kernel: [Int], strides: [Int] = [], dilations: [Int] = [], pads: [Int] = [],
                            autoPad: AutoPad = .notSet, ceil: Bool = false, includePad: Bool = false) -> PoolAttributes {
        PoolAttributes(kernelShape: kernel, strides: strides, dilations: dilations, pads: pads, autoPad: autoPad,
                       ceilMode: ceil, countIncludePad: includePad)
    }

    func testCeilMode() throws {
        // test_maxpool_2d_ceil / test_averagepool_2d_ceil: x = 1...16 (4×4), kernel 3, stride 2.
        // The second window on each axis covers rows/columns 2...3 only (the rest overhangs).
        let x = iota([1, 1, 4, 4], from: 1)
        assertClose(try evaluate1(.maxPool(attributes([3, 3], strides: [2, 2], ceil: true)), x), [1, 1, 2, 2], [11, 12, 15, 16])
        // Averages: (1+2+3+5+6+7+9+10+11)/9 = 6, (3+4+7+8+11+12)/6 = 7.5, (9+10+11+13+14+15)/6 = 12, (11+12+15+16)/4 = 13.5.
        assertClose(try evaluate1(.averagePool(attributes([3, 3], strides: [2, 2], ceil: true)), x), [1, 1, 2, 2], [6, 7.5, 12, 13.5])
    }

    func testAveragePaddingCounts() throws {
        // test_averagepool_2d_precomputed_pads(_count_include_pad): x = 1...25 (5×5), kernel 5, pads 2.
        let x = iota([1, 1, 5, 5], from: 1)
        let excluded = try evaluate1(.averagePool(attributes([5, 5], pads: [2, 2, 2, 2])), x)
        assertClose(excluded, [1, 1, 5, 5], [7, 7.5, 8, 8.5, 9, 9.5, 10, 10.5, 11, 11.5, 12, 12.5, 13, 13.5, 14,
                                             14.5, 15, 15.5, 16, 16.5, 17, 17.5, 18, 18.5, 19])
        let included = try evaluate1(.averagePool(attributes([5, 5], pads: [2, 2, 2, 2], includePad: true)), x)
        assertClose(included, [1, 1, 5, 5], [2.52, 3.6, 4.8, 4.08, 3.24, 4.56, 6.4, 8.4, 7.04, 5.52, 7.2, 10, 13, 10.8, 8.4,
                                             6.96, 9.6, 12.4, 10.24, 7.92, 6.12, 8.4, 10.8, 8.88, 6.84])
    }

    func testCountIncludePadIgnoresCeilOverhang() throws {
        // x = 1...6, kernel 3, stride 2, pads 1/1, ceil: 4 windows starting at -1, 1, 3, 5.
        // The last covers x[5] = 6, one end-pad cell and one cell beyond the pads.
        let x = try floats([1, 1, 6], [1, 2, 3, 4, 5, 6])
        let included = try evaluate1(.averagePool(attributes([3], strides: [2], pads: [1, 1], ceil: true, includePad: true)), x)
        // (0+1+2)/3, (2+3+4)/3, (4+5+6)/3, (6+0)/2: the overhang cell does not count.
        assertClose(included, [1, 1, 4], [1, 3, 5, 3])
        let excluded = try evaluate1(.averagePool(attributes([3], strides: [2], pads: [1, 1], ceil: true)), x)
        // (1+2)/2, 9/3, 15/3, 6/1.
        assertClose(excluded, [1, 1, 4], [1.5, 3, 5, 6])
    }

    func testSamePadding() throws {
        let x = try floats([1, 1, 4], [1, 2, 3, 4])
        // Kernel 2, one pad cell: at the end for SAME_UPPER, at the start for SAME_LOWER.
        assertClose(try evaluate1(.averagePool(attributes([2], autoPad: .sameUpper)), x), [1, 1, 4], [1.5, 2.5, 3.5, 4])
        assertClose(try evaluate1(.averagePool(attributes([2], autoPad: .sameUpper, includePad: true)), x), [1, 1, 4], [1.5, 2.5, 3.5, 2])
        assertClose(try evaluate1(.averagePool(attributes([2], autoPad: .sameLower, includePad: true)), x), [1, 1, 4], [0.5, 1.5, 2.5, 3.5])
        assertClose(try evaluate1(.maxPool(attributes([2], autoPad: .sameLower)), x), [1, 1, 4], [1, 2, 3, 4])
    }

    func testMaxPoolPaddingNeverWins() throws {
        // All-negative input with padding: the pad cells are ignored, not read as 0.
        let x = try floats([1, 1, 2], [-1, -2])
        assertClose(try evaluate1(.maxPool(attributes([2], pads: [1, 1])), x), [1, 1, 3], [-1, -1, -2])
    }

    func testMaxPoolDilation() throws {
        // test_maxpool_2d_dilations: x = 1...16 (4×4), kernel 2 dilated by 2 reads rows/cols {i, i+2}.
        let x = iota([1, 1, 4, 4], from: 1)
        assertClose(try evaluate1(.maxPool(attributes([2, 2], dilations: [2, 2])), x), [1, 1, 2, 2], [11, 12, 15, 16])
    }

    func testMaxPoolIndices() throws {
        // Indices are flat over the whole input tensor (batch and channel included), first maximum wins.
        let x = try floats([2, 1, 2, 3], [1, 5, 2, 4, 3, 6,
                                          9, 9, 0, 0, 0, 0])
        let outputs = try evaluate(.maxPool(attributes([2, 2])), [x], outputCount: 2)
        assertClose(outputs[0], [2, 1, 1, 2], [5, 6, 9, 9])
        XCTAssertEqual(outputs[1].shape, [2, 1, 1, 2])
        XCTAssertEqual(outputs[1].int64s, [1, 5, 6, 7])
    }

    func testOneAndThreeDimensions() throws {
        let x1 = try floats([1, 2, 3], [3, 1, 2, -1, -3, -2])
        assertClose(try evaluate1(.maxPool(attributes([2])), x1), [1, 2, 2], [3, 2, -1, -2])
        let x3 = iota([1, 1, 2, 2, 2])
        assertClose(try evaluate1(.maxPool(attributes([2, 2, 2])), x3), [1, 1, 1, 1, 1], [7])
        assertClose(try evaluate1(.averagePool(attributes([2, 2, 2])), x3), [1, 1, 1, 1, 1], [3.5])
        // Kernel 1×1×2 with stride 2 along the last axis: the even entries.
        assertClose(try evaluate1(.maxPool(attributes([1, 1, 1], strides: [1, 1, 2])), x3), [1, 1, 2, 2, 1], [0, 2, 4, 6])
    }

    func testGlobalPools() throws {
        // Per (batch, channel) plane: mean and max of 0...3, 4...7, 8...11, 12...15.
        let x = iota([2, 2, 2, 2])
        assertClose(try evaluate1(.globalAveragePool, x), [2, 2, 1, 1], [1.5, 5.5, 9.5, 13.5])
        assertClose(try evaluate1(.globalMaxPool, x), [2, 2, 1, 1], [3, 7, 11, 15])
        // Three spatial axes and one.
        assertClose(try evaluate1(.globalAveragePool, iota([1, 1, 2, 1, 3])), [1, 1, 1, 1, 1], [2.5])
        assertClose(try evaluate1(.globalMaxPool, try floats([1, 2, 2], [-3, -1, 4, 2])), [1, 2, 1], [-1, 4])
    }
}
