import XCTest
@testable import FoveaCore

/// Conv on small cases whose outputs are sums worked out by hand (or quoted from
/// the ONNX operator documentation's examples, which use x = 0...24 and an all-ones kernel).
final class ReferenceConvolutionTests: XCTestCase {
    private func conv(_ kernel: [Int], strides: [Int] = [], dilations: [Int] = [], pads: [Int] = [],
                      autoPad: AutoPad = .notSet, group: Int = 1) -> Op {
        .conv(ConvAttributes(kernelShape: kernel, strides: strides, dilations: dilations, pads: pads, autoPad: autoPad, group: group))
    }

    private let ones3x3 = Tensor(shape: [1, 1, 3, 3], repeating: 1)

    func testPaddedAndUnpadded() throws {
        let x = iota([1, 1, 5, 5])
        // ONNX docs, test_basic_conv_with_padding: each output is the sum of the 3×3 neighbourhood.
        let padded = try evaluate1(conv([3, 3], pads: [1, 1, 1, 1]), x, ones3x3)
        assertClose(padded, [1, 1, 5, 5], [12, 21, 27, 33, 24,
                                           33, 54, 63, 72, 51,
                                           63, 99, 108, 117, 81,
                                           93, 144, 153, 162, 111,
                                           72, 111, 117, 123, 84])
        let valid = try evaluate1(conv([3, 3]), x, ones3x3)
        assertClose(valid, [1, 1, 3, 3], [54, 63, 72, 99, 108, 117, 144, 153, 162])
    }

    func testStridesWithAsymmetricPadding() throws {
        // ONNX docs, test_conv_with_strides_and_asymmetric_padding: x = 0...34 (7×5), stride 2, pads [1, 0, 1, 0].
        let y = try evaluate1(conv([3, 3], strides: [2, 2], pads: [1, 0, 1, 0]), iota([1, 1, 7, 5]), ones3x3)
        assertClose(y, [1, 1, 4, 2], [21, 33, 99, 117, 189, 207, 171, 183])
    }

    func testAutoPad() throws {
        // ONNX docs, test_conv_with_autopad_same (SAME_LOWER, stride 2): total pad 2 → 1 on each side.
        let y = try evaluate1(conv([3, 3], strides: [2, 2], autoPad: .sameLower), iota([1, 1, 5, 5]), ones3x3)
        assertClose(y, [1, 1, 3, 3], [12, 27, 24, 63, 108, 81, 72, 117, 84])

        // Kernel [1, 10] over [1, 2, 3, 4]: one pad pixel, at the end (UPPER) or the start (LOWER).
        let x = try floats([1, 1, 1, 4], [1, 2, 3, 4])
        let w = try floats([1, 1, 1, 2], [1, 10])
        assertClose(try evaluate1(conv([1, 2], autoPad: .sameUpper), x, w), [1, 1, 1, 4], [21, 32, 43, 4])
        assertClose(try evaluate1(conv([1, 2], autoPad: .sameLower), x, w), [1, 1, 1, 4], [10, 21, 32, 43])
        assertClose(try evaluate1(conv([1, 2], pads: [9, 9, 9, 9], autoPad: .valid), x, w), [1, 1, 1, 3], [21, 32, 43])
    }

    func testBiasAndGroups() throws {
        // Two groups of one channel: out0 = 2 * ch0 + 0.5, out1 = -1 * ch1 + 1.
        let x = try floats([1, 2, 2, 2], [1, 2, 3, 4, 5, 6, 7, 8])
        let w = try floats([2, 1, 1, 1], [2, -1])
        let b = try floats([2], [0.5, 1])
        let y = try evaluate1(conv([1, 1], group: 2), x, w, b)
        assertClose(y, [1, 2, 2, 2], [2.5, 4.5, 6.5, 8.5, -4, -5, -6, -7])
    }

    func testDepthwiseWithMultiplier() throws {
        // group = C = 2, 4 outputs: outputs 0, 1 read channel 0 (value 1), outputs 2, 3 read channel 1 (value 10).
        let x = try floats([1, 2, 1, 1], [1, 10])
        let w = try floats([4, 1, 1, 1], [1, 2, 3, 4])
        assertClose(try evaluate1(conv([1, 1], group: 2), x, w), [1, 4, 1, 1], [1, 2, 30, 40])
    }

    func testChannelsSumAndBatchesAreIndependent() throws {
        // 1×1 kernel [1, 2] over two channels: y = ch0 + 2 * ch1, per batch item.
        // Batch 0: [1, 2] + 2 * [3, 4] = [7, 10]; batch 1: [5, 6] + 2 * [7, 8] = [19, 22].
        let x = try floats([2, 2, 1, 2], [1, 2, 3, 4, 5, 6, 7, 8])
        let w = try floats([1, 2, 1, 1], [1, 2])
        assertClose(try evaluate1(conv([1, 1]), x, w), [2, 1, 1, 2], [7, 10, 19, 22])
    }

    func testOneDimensionalDilationAndStride() throws {
        let x = try floats([1, 1, 5], [1, 2, 3, 4, 5])
        // Dilation 2: y[i] = x[i] + 10 * x[i + 2] = [1 + 30, 2 + 40, 3 + 50].
        assertClose(try evaluate1(conv([2], dilations: [2]), x, try floats([1, 1, 2], [1, 10])), [1, 1, 3], [31, 42, 53])
        // Stride 2, pads 1: windows over [0, 1, 2, 3, 4, 5, 0] starting at 0, 2, 4.
        assertClose(try evaluate1(conv([3], strides: [2], pads: [1, 1]), x, Tensor(shape: [1, 1, 3], repeating: 1)),
                    [1, 1, 3], [3, 9, 9])
    }

    func testThreeDimensional() throws {
        let x = iota([1, 1, 2, 2, 2])
        // An all-ones 2×2×2 kernel sums 0...7 = 28.
        assertClose(try evaluate1(conv([2, 2, 2]), x, Tensor(shape: [1, 1, 2, 2, 2], repeating: 1)), [1, 1, 1, 1, 1], [28])
        // Kernel [1, -1] along the last axis: x[..., 0] - x[..., 1] = -1 everywhere.
        assertClose(try evaluate1(conv([1, 1, 2]), x, try floats([1, 1, 1, 1, 2], [1, -1])), [1, 1, 2, 2, 1], [-1, -1, -1, -1])
    }

    func testDilatedPaddedStridedMatchesNaiveDefinition() throws {
        // A case with every feature at once, checked against the textbook formula
        // y[n, m, i, j] = b[m] + Σ_c,p,q w[m, c, p, q] * x[n, g*C/G + c, i*s - pad + p*d, j*s - pad + q*d].
        let (n, c, h, w, m, k, group) = (2, 4, 7, 6, 4, 3, 2)
        let x = Tensor(uncheckedShape: [n, c, h, w], floats: (0..<(n * c * h * w)).map { Float(($0 * 7) % 11) - 5 })
        let weights = Tensor(uncheckedShape: [m, c / group, k, k], floats: (0..<(m * c / group * k * k)).map { Float(($0 * 5) % 7) - 3 })
        let bias = try floats([m], [1, -2, 3, -4])
        let attributes = ConvAttributes(kernelShape: [k, k], strides: [2, 1], dilations: [1, 2], pads: [2, 1, 0, 3], group: group)
        let y = try evaluate1(.conv(attributes), x, weights, bias)
        let g = try SpatialGeometry(inputSize: [h, w], convolution: attributes)
        XCTAssertEqual(y.shape, [n, m] + g.outputSize)
        let xs = x.floats ?? [], ws = weights.floats ?? [], bs = bias.floats ?? []
        var expected: [Float] = []
        for b in 0..<n {
            for oc in 0..<m {
                let firstChannel = oc / (m / group) * (c / group)
                for i in 0..<g.outputSize[0] {
                    for j in 0..<g.outputSize[1] {
                        var sum = bs[oc]
                        for ic in 0..<(c / group) {
                            for p in 0..<k {
                                for q in 0..<k {
                                    let row = i * 2 - 2 + p, column = j * 1 - 1 + q * 2
                                    guard row >= 0, row < h, column >= 0, column < w else { continue }
                                    sum += ws[((oc * (c / group) + ic) * k + p) * k + q] * xs[((b * c + firstChannel + ic) * h + row) * w + column]
                                }
                            }
                        }
                        expected.append(sum)
                    }
                }
            }
        }
        assertClose(y, [n, m] + g.outputSize, expected)
    }

    func testBadInputsThrowInsteadOfCrashing() {
        // The backend checks shapes itself, so a direct call with inconsistent inputs fails cleanly.
        assertFoveaError(.shapeMismatch, "channels") {
            try ReferenceBackend.evaluate(self.conv([3, 3]), inputs: [iota([1, 2, 5, 5]), self.ones3x3],
                                          outputTypes: [f32([1, 1, 3, 3])])
        }
        assertFoveaError(.shapeMismatch, "output 0 was planned as float32[1×1×5×5]", "give float32[1×1×3×3]") {
            try ReferenceBackend.evaluate(self.conv([3, 3]), inputs: [iota([1, 1, 5, 5]), self.ones3x3],
                                          outputTypes: [f32([1, 1, 5, 5])])
        }
    }
}
