import XCTest
@testable import FoveaCore

/// Output sizes and resolved pads for every auto_pad mode and ceil_mode.
/// Expected values are worked out by hand from the ONNX formulas in the comments.
final class SpatialGeometryTests: XCTestCase {
    func testExplicitAsymmetricPads() throws {
        // As test_conv_with_strides_and_asymmetric_padding: 7×5, kernel 3, stride 2, pads [1, 0, 1, 0]:
        // floor((7 + 2 - 3) / 2) + 1 = 4, floor((5 + 0 - 3) / 2) + 1 = 2.
        let g = try SpatialGeometry(inputSize: [7, 5], kernelShape: [3, 3], strides: [2, 2], pads: [1, 0, 1, 0])
        XCTAssertEqual(g.outputSize, [4, 2])
        XCTAssertEqual(g.padsBegin, [1, 0])
        XCTAssertEqual(g.padsEnd, [1, 0])
        XCTAssertEqual(g.dilations, [1, 1], "empty dilations default to 1")
    }

    func testConvolutionKernelFromWeights() throws {
        // kernel_shape omitted: W (8×3×3×5) supplies 3×5. floor((10 - 3) / 1) + 1 = 8, floor((10 - 5) / 1) + 1 = 6.
        let attributes = ConvAttributes(kernelShape: [], strides: [], dilations: [], pads: [])
        let g = try SpatialGeometry(inputSize: [10, 10], convolution: attributes, weightShape: [8, 3, 3, 5])
        XCTAssertEqual(g.kernelShape, [3, 5])
        XCTAssertEqual(g.outputSize, [8, 6])
        let pool = PoolAttributes(kernelShape: [2, 2], strides: [2, 2], dilations: [], pads: [], ceilMode: true)
        XCTAssertEqual(try SpatialGeometry(inputSize: [5, 4], pooling: pool).outputSize, [3, 2])
    }

    func testDefaultsAndDilation() throws {
        // Kernel 3 dilated by 2 spans 5: floor((10 - 5) / 1) + 1 = 6.
        let g = try SpatialGeometry(inputSize: [10], kernelShape: [3], dilations: [2])
        XCTAssertEqual(g.outputSize, [6])
        XCTAssertEqual(g.dilatedKernel(0), 5)
        XCTAssertEqual(g.padsBegin, [0])
    }

    func testValidIgnoresPads() throws {
        // floor((5 - 2) / 2) + 1 = 2; the explicit pads are ignored.
        let g = try SpatialGeometry(inputSize: [5], kernelShape: [2], strides: [2], pads: [3, 3], autoPad: .valid)
        XCTAssertEqual(g.outputSize, [2])
        XCTAssertEqual(g.padsBegin + g.padsEnd, [0, 0])
    }

    func testSameUpperAndLowerSplitOddPadding() throws {
        // out = ceil(5 / 1) = 5; total pad = (5 - 1) * 1 + 2 - 5 = 1: at the end (UPPER) or beginning (LOWER).
        let upper = try SpatialGeometry(inputSize: [5], kernelShape: [2], autoPad: .sameUpper)
        XCTAssertEqual(upper.outputSize, [5])
        XCTAssertEqual([upper.padsBegin[0], upper.padsEnd[0]], [0, 1])
        let lower = try SpatialGeometry(inputSize: [5], kernelShape: [2], autoPad: .sameLower)
        XCTAssertEqual(lower.outputSize, [5])
        XCTAssertEqual([lower.padsBegin[0], lower.padsEnd[0]], [1, 0])
    }

    func testSameWithStrideAndDilation() throws {
        // out = ceil(7 / 2) = 4; dilated kernel (3 - 1) * 2 + 1 = 5; total = 3 * 2 + 5 - 7 = 4 → 2 + 2.
        let g = try SpatialGeometry(inputSize: [7], kernelShape: [3], strides: [2], dilations: [2], autoPad: .sameUpper)
        XCTAssertEqual(g.outputSize, [4])
        XCTAssertEqual([g.padsBegin[0], g.padsEnd[0]], [2, 2])
        // Total 3 (out 3 from 6 with stride 2, kernel 5): UPPER 1 + 2, LOWER 2 + 1.
        let upper = try SpatialGeometry(inputSize: [6], kernelShape: [5], strides: [2], autoPad: .sameUpper)
        XCTAssertEqual(upper.outputSize, [3])
        XCTAssertEqual([upper.padsBegin[0], upper.padsEnd[0]], [1, 2])
        let lower = try SpatialGeometry(inputSize: [6], kernelShape: [5], strides: [2], autoPad: .sameLower)
        XCTAssertEqual([lower.padsBegin[0], lower.padsEnd[0]], [2, 1])
    }

    func testSamePaddingIsNeverNegative() throws {
        // Kernel 1 with stride 3 over 9: out 3; (3 - 1) * 3 + 1 - 9 = -2 is clamped to 0.
        let g = try SpatialGeometry(inputSize: [9], kernelShape: [1], strides: [3], autoPad: .sameUpper)
        XCTAssertEqual(g.outputSize, [3])
        XCTAssertEqual(g.padsBegin + g.padsEnd, [0, 0])
    }

    func testSameIgnoresExplicitPads() throws {
        // As test_averagepool_2d_same_upper: 32×32, kernel 2 → 32×32 with one pad row/column at the end.
        let g = try SpatialGeometry(inputSize: [32, 32], kernelShape: [2, 2], pads: [5, 5, 5, 5], autoPad: .sameUpper)
        XCTAssertEqual(g.outputSize, [32, 32])
        XCTAssertEqual(g.padsBegin, [0, 0])
        XCTAssertEqual(g.padsEnd, [1, 1])
    }

    func testCeilModeRoundsUp() throws {
        // As test_maxpool_2d_ceil: 4×4, kernel 3, stride 2: floor gives (4 - 3) / 2 + 1 = 1, ceil gives 2.
        let floorMode = try SpatialGeometry(inputSize: [4, 4], kernelShape: [3, 3], strides: [2, 2])
        XCTAssertEqual(floorMode.outputSize, [1, 1])
        let ceilMode = try SpatialGeometry(inputSize: [4, 4], kernelShape: [3, 3], strides: [2, 2], ceilMode: true)
        XCTAssertEqual(ceilMode.outputSize, [2, 2])
        XCTAssertEqual(ceilMode.padsEnd, [0, 0], "the overhang is not padding")
    }

    func testCeilModeDropsWindowStartingInEndPadding() throws {
        // 6 + end pad 1, kernel 2, stride 3: ceil((7 - 2) / 3) + 1 = 3, but the third window would
        // start at 6, inside the end padding, so it is dropped (PyTorch / onnxruntime).
        let g = try SpatialGeometry(inputSize: [6], kernelShape: [2], strides: [3], pads: [0, 1], ceilMode: true)
        XCTAssertEqual(g.outputSize, [2])
        // With begin padding instead, the third window starts at 6 - 1 = 5, inside the input: kept.
        let kept = try SpatialGeometry(inputSize: [6], kernelShape: [2], strides: [3], pads: [1, 0], ceilMode: true)
        XCTAssertEqual(kept.outputSize, [3])
    }

    func testCeilModeWithValid() throws {
        // 5, kernel 2, stride 2: ceil(3 / 2) + 1 = 3; the last window starts at 4 (inside) and overhangs by 1.
        let g = try SpatialGeometry(inputSize: [5], kernelShape: [2], strides: [2], autoPad: .valid, ceilMode: true)
        XCTAssertEqual(g.outputSize, [3])
    }

    func testValidRanges() throws {
        // 5 wide, kernel 3, pads 1/1: output o reads o - 1 + tap.
        let g = try SpatialGeometry(inputSize: [5], kernelShape: [3], pads: [1, 1])
        XCTAssertEqual(g.outputSize, [5])
        XCTAssertEqual(g.validOutputRange(axis: 0, tap: 0), 1..<5)   // o - 1 >= 0
        XCTAssertEqual(g.validOutputRange(axis: 0, tap: 1), 0..<5)
        XCTAssertEqual(g.validOutputRange(axis: 0, tap: 2), 0..<4)   // o + 1 <= 4
        XCTAssertEqual(g.validTapRange(axis: 0, output: 0), 1..<3)
        XCTAssertEqual(g.validTapRange(axis: 0, output: 4), 0..<2)
        XCTAssertEqual(g.inputCoordinate(axis: 0, output: 0, tap: 0), -1)
        XCTAssertEqual(g.paddedTapCount(axis: 0, output: 0), 3, "padding counts")

        // Stride 2 and dilation 2 over 7 with pad 2: output o, tap t reads 2o - 2 + 2t.
        let s = try SpatialGeometry(inputSize: [7], kernelShape: [3], strides: [2], dilations: [2], pads: [2, 2])
        XCTAssertEqual(s.outputSize, [4])                               // (7 + 4 - 5) / 2 + 1
        XCTAssertEqual(s.validOutputRange(axis: 0, tap: 0), 1..<4)     // 2o - 2 in 0...6
        XCTAssertEqual(s.validOutputRange(axis: 0, tap: 2), 0..<3)     // 2o + 2 in 0...6
        XCTAssertEqual(s.validTapRange(axis: 0, output: 3), 0..<2)     // 4, 6 inside; 8 outside

        // The ceil-mode overhang is neither input nor padding.
        let c = try SpatialGeometry(inputSize: [5], kernelShape: [2], strides: [2], ceilMode: true)
        XCTAssertEqual(c.validTapRange(axis: 0, output: 2), 0..<1)
        XCTAssertEqual(c.paddedTapCount(axis: 0, output: 2), 1)
    }

    func testBadAttributes() {
        assertFoveaError(.invalidAttribute, "kernel_shape", "expected 2") {
            try SpatialGeometry(inputSize: [5, 5], kernelShape: [3])
        }
        assertFoveaError(.invalidAttribute, "strides", "contains 0") {
            try SpatialGeometry(inputSize: [5, 5], kernelShape: [3, 3], strides: [1, 0])
        }
        assertFoveaError(.invalidAttribute, "dilations") {
            try SpatialGeometry(inputSize: [5], kernelShape: [3], dilations: [-1])
        }
        assertFoveaError(.invalidAttribute, "pads", "expected 4") {
            try SpatialGeometry(inputSize: [5, 5], kernelShape: [3, 3], pads: [1, 1])
        }
        assertFoveaError(.invalidAttribute, "pads", "contains -1") {
            try SpatialGeometry(inputSize: [5], kernelShape: [3], pads: [-1, 0])
        }
        assertFoveaError(.invalidAttribute, "kernel_shape") {
            try SpatialGeometry(inputSize: [5], kernelShape: [Int.max])
        }
    }

    func testInputSmallerThanKernel() {
        // 2 + 0 pads < kernel 3.
        assertFoveaError(.shapeMismatch, "size 2", "dilated kernel 3") {
            try SpatialGeometry(inputSize: [2], kernelShape: [3])
        }
        // Dilation makes the kernel span 5 > 4.
        assertFoveaError(.shapeMismatch, "dilated kernel 5") {
            try SpatialGeometry(inputSize: [4], kernelShape: [3], dilations: [2])
        }
        assertFoveaError(.shapeMismatch, "empty") {
            try SpatialGeometry(inputSize: [0], kernelShape: [1], autoPad: .sameUpper)
        }
    }
}
