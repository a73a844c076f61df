import XCTest
@testable import FoveaCore

/// The quantized operators on the reference backend, on the ONNX specification's
/// own examples and on hand-computed cases for rounding, saturation and per-axis
/// parameters.
final class ReferenceQuantizationTests: XCTestCase {
    private func u8(_ shape: [Int], _ values: [UInt8]) -> Tensor { Tensor(uncheckedShape: shape, storage: .uint8(values)) }
    private func i8(_ shape: [Int], _ values: [Int8]) -> Tensor { Tensor(uncheckedShape: shape, storage: .int8(values)) }
    private func i32(_ shape: [Int], _ values: [Int32]) -> Tensor { Tensor(uncheckedShape: shape, storage: .int32(values)) }
    private func scalar(_ value: Float) -> Tensor { Tensor(uncheckedShape: [], floats: [value]) }

    func testQuantizeLinearSaturatesAndRoundsHalfToEven() throws {
        // The spec's example: 3 / 2 = 1.5 rounds to 2; 1000 and -1000 saturate.
        let x = try floats([6], [0, 2, 3, 1000, -254, -1000])
        let y = try evaluate1(.quantizeLinear(QuantizeLinearAttributes()), x, scalar(2), u8([], [128]))
        XCTAssertEqual(y.uint8s, [128, 129, 130, 255, 1, 0])
        let halves = try floats([7], [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 200])
        XCTAssertEqual(try evaluate1(.quantizeLinear(QuantizeLinearAttributes(outputType: .int8)), halves, scalar(1), i8([], [0])).int8s,
                       [0, 2, 2, 0, -2, -2, 127])
        // No zero point: uint8 with zero point 0; NaN gives the zero point.
        XCTAssertEqual(try evaluate1(.quantizeLinear(QuantizeLinearAttributes()), try floats([3], [-1, .nan, 7]), scalar(1)).uint8s, [0, 0, 7])
    }

    func testQuantizeLinearPerAxis() throws {
        // The spec's axis example: x 1×3×3×2, one scale and zero point per channel.
        let x = try floats([1, 3, 3, 2], [-162, 10, -100, 232, -20, -50, -76, 0, 0, 252, 32, -44, 245, -485, -960, -270, -375, -470])
        let y = try evaluate1(.quantizeLinear(QuantizeLinearAttributes(axis: 1)), x, try floats([3], [2, 4, 5]), u8([3], [84, 24, 196]))
        XCTAssertEqual(y.uint8s, [3, 89, 34, 200, 74, 59, 5, 24, 24, 87, 32, 13, 245, 99, 4, 142, 121, 102])
        assertFoveaError(.shapeMismatch, "scale has 3 values; expected 2") {
            try evaluate1(.quantizeLinear(QuantizeLinearAttributes(axis: -1)), x, try floats([3], [2, 4, 5]), self.u8([3], [84, 24, 196]))
        }
        assertFoveaError(.shapeMismatch, "zero point is int8[3]; expected uint8") {
            try evaluate1(.quantizeLinear(QuantizeLinearAttributes(axis: 1)), x, try floats([3], [2, 4, 5]), self.i8([3], [0, 0, 0]))
        }
    }

    func testDequantizeLinear() throws {
        XCTAssertEqual(try evaluate1(.dequantizeLinear(axis: 1), u8([4], [0, 3, 128, 255]), scalar(2), u8([], [128])).floats,
                       [-256, -250, 0, 254])
        // Per axis on int8, and int32 (a bias) with no zero point, also as ONNX INT32 loads (int64).
        let w = i8([2, 2], [-128, 127, 1, -1])
        XCTAssertEqual(try evaluate1(.dequantizeLinear(axis: 0), w, try floats([2], [0.5, 2]), i8([2], [0, 1])).floats, [-64, 63.5, 0, -4])
        XCTAssertEqual(try evaluate1(.dequantizeLinear(axis: 0), i32([2], [-5, 1 << 20]), scalar(0.25)).floats, [-1.25, 262144])
        XCTAssertEqual(try evaluate1(.dequantizeLinear(axis: 0), Tensor(uncheckedShape: [1], storage: .int64([40])), scalar(0.25)).floats, [10])
        assertFoveaError(.unsupported, "x has data type float32; DequantizeLinear reads uint8, int8 or int32") {
            try evaluate1(.dequantizeLinear(axis: 1), try floats([1], [1]), self.scalar(1))
        }
    }

    func testDynamicQuantizeLinear() throws {
        // The spec's first example: range [-3, 2] → scale 5/255, zero point 153.
        let outputs = try evaluate(.dynamicQuantizeLinear, [try floats([6], [0, 2, -3, -2.5, 1.34, 0.5])], outputCount: 3)
        XCTAssertEqual(outputs[0].uint8s, [153, 255, 0, 26, 221, 179])
        XCTAssertEqual(outputs[1].floats, [Float(5) / 255])
        XCTAssertEqual(outputs[2].uint8s, [153])
        // All zeros: scale 1 (onnxruntime's choice where the spec would divide 0 by 0).
        let zeros = try evaluate(.dynamicQuantizeLinear, [try floats([2], [0, 0])], outputCount: 3)
        XCTAssertEqual(zeros[0].uint8s, [0, 0])
        XCTAssertEqual(zeros[1].floats, [1])
    }

    func testMatMulIntegerAndQLinearMatMulOnTheSpecsExamples() throws {
        let a = u8([4, 3], [11, 7, 3, 10, 6, 2, 9, 5, 1, 8, 4, 0]), b = u8([3, 2], [1, 4, 2, 5, 3, 6])
        XCTAssertEqual(try evaluate1(.matMulInteger, a, b, u8([], [12]), u8([], [0])).int32s, [-38, -83, -44, -98, -50, -113, -56, -128])
        let qa = u8([2, 4], [208, 236, 0, 238, 3, 214, 255, 29])
        let qb = u8([4, 3], [152, 51, 244, 60, 26, 255, 0, 127, 246, 127, 254, 247])
        let y = try evaluate1(.qLinearMatMul, qa, scalar(0.0066), u8([], [113]), qb, scalar(0.00705), u8([], [114]),
                              scalar(0.0107), u8([], [118]))
        XCTAssertEqual(y.uint8s, [168, 115, 255, 1, 66, 151])
    }

    func testConvIntegerOnTheSpecsExample() throws {
        let x = u8([1, 1, 3, 3], [2, 3, 4, 5, 6, 7, 8, 9, 10]), w = u8([1, 1, 2, 2], [1, 1, 1, 1])
        let attributes = ConvAttributes(kernelShape: [2, 2], strides: [1, 1], dilations: [1, 1], pads: [0, 0, 0, 0])
        let y = try evaluate1(.convInteger(attributes), x, w, u8([], [1]))
        XCTAssertEqual(y.dataType, .int32)
        XCTAssertEqual(y.int32s, [12, 16, 24, 28])
        // Padded: the padding is x's zero point, so it adds nothing.
        let padded = ConvAttributes(kernelShape: [2, 2], strides: [1, 1], dilations: [1, 1], pads: [1, 1, 0, 0])
        XCTAssertEqual(try evaluate1(.convInteger(padded), x, w, u8([], [1])).int32s, [1, 3, 5, 5, 12, 16, 11, 24, 28])
    }

    /// acc = 2·(x − 10) + 4 = [4, 24, 44, 64]; × (0.5 · 0.25 / 1) = [0.5, 3, 5.5, 8];
    /// half to even [0, 3, 6, 8]; + 5.
    func testQLinearConvRequantizes() throws {
        let x = u8([1, 1, 2, 2], [10, 20, 30, 40]), w = i8([1, 1, 1, 1], [2])
        let attributes = ConvAttributes(kernelShape: [1, 1], strides: [1, 1], dilations: [1, 1], pads: [0, 0, 0, 0])
        let y = try evaluate1(.qLinearConv(attributes), x, scalar(0.5), u8([], [10]), w, scalar(0.25), i8([], [0]),
                              scalar(1), u8([], [5]), i32([1], [4]))
        XCTAssertEqual(y.uint8s, [5, 8, 11, 13])
        let quantized = QuantizedConvAttributes(convolution: attributes, inputScale: 0.5, inputZeroPoint: 10, weightScales: [0.25],
                                                weightZeroPoints: [0], outputScale: 1, outputZeroPoint: 5, outputType: .uint8)
        XCTAssertEqual(try evaluate1(.quantizedConv(quantized), x, w, i32([1], [4])).uint8s, [5, 8, 11, 13])
        assertFoveaError(.shapeMismatch, "w_scale is float32[3]; expected float32, one value or 1") {
            try evaluate1(.qLinearConv(attributes), x, self.scalar(0.5), self.u8([], [10]), w, try floats([3], [1, 1, 1]), self.i8([], [0]),
                          self.scalar(1), self.u8([], [5]))
        }
    }

    /// The seam for the integer-step pass: QuantizedConv with its constants in the
    /// attributes computes what QLinearConv computes with them as inputs, over
    /// per-channel weights, groups, strides, pads and int8 outputs.
    func testQuantizedConvAgreesWithQLinearConv() throws {
        var generator = SeededGenerator(seed: 7)
        let attributes = ConvAttributes(kernelShape: [3, 3], strides: [2, 1], dilations: [1, 2], pads: [1, 0, 2, 1], group: 2)
        let x = u8([2, 4, 7, 6], (0..<(2 * 4 * 7 * 6)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let w = i8([6, 2, 3, 3], (0..<(6 * 2 * 9)).map { _ in Int8.random(in: -128...127, using: &generator) })
        let b = i32([6], (0..<6).map { _ in Int32.random(in: -5000...5000, using: &generator) })
        let scales: [Float] = [0.01, 0.02, 0.005, 0.03, 0.011, 0.009], zeroPoints: [Int8] = [0, 1, -1, 3, 0, -128]
        let qLinear = try evaluate1(.qLinearConv(attributes), x, scalar(0.05), u8([], [131]), w, try floats([6], scales), i8([6], zeroPoints),
                                    scalar(0.7), i8([], [-3]), b)
        let quantized = QuantizedConvAttributes(convolution: attributes, inputScale: 0.05, inputZeroPoint: 131, weightScales: scales,
                                                weightZeroPoints: zeroPoints.map(Int.init), outputScale: 0.7, outputZeroPoint: -3, outputType: .int8)
        let y = try evaluate1(.quantizedConv(quantized), x, w, b)
        XCTAssertEqual(y.int8s, qLinear.int8s)
        // Both saturate somewhere and use the whole range, so the case is not trivial.
        XCTAssertTrue(y.int8s?.contains(127) == true || y.int8s?.contains(-128) == true)
        XCTAssertGreaterThan(Set(y.int8s ?? []).count, 50)
    }

    func testCastToAndFromTheIntegerTypes() throws {
        let x = try floats([4], [-1.7, 2.9, 300, .nan])
        XCTAssertEqual(try evaluate1(.cast(to: .uint8), x).uint8s, [255, 2, 44, 0])
        XCTAssertEqual(try evaluate1(.cast(to: .int8), x).int8s, [-1, 2, 44, 0])
        XCTAssertEqual(try evaluate1(.cast(to: .float32), i8([2], [-128, 5])).floats, [-128, 5])
        XCTAssertEqual(try evaluate1(.cast(to: .int64), u8([2], [255, 0])).int64s, [255, 0])
    }
}
