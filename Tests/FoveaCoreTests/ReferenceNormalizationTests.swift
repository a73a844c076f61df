import XCTest
@testable import FoveaCore

/// BatchNormalization, LRN, Softmax and LogSoftmax. Softmax values are
/// e^x / Σ e^x computed with numpy (printed to 8 digits).
final class ReferenceNormalizationTests: XCTestCase {
    func testBatchNormalization() throws {
        // Channel 0: (x - 2) / sqrt(1) * 1 + 0; channel 1: (x - 4) / sqrt(4) * 2 + 1.
        let params = [try floats([2], [1, 2]), try floats([2], [0, 1]), try floats([2], [2, 4]), try floats([2], [1, 4])]
        let x = try floats([1, 2, 1, 2], [1, 3, 2, 6])
        assertClose(try evaluate(.batchNormalization(epsilon: 0), [x] + params)[0], [1, 2, 1, 2], [-1, 1, -1, 3])
        // Rank 2 (N×C) and batch 2: the same per-channel transform.
        let x2 = try floats([2, 2], [1, 2, 3, 6])
        assertClose(try evaluate(.batchNormalization(epsilon: 0), [x2] + params)[0], [2, 2], [-1, -1, 1, 3])
        // Epsilon is added to the variance: sqrt(0 + 0.25) = 0.5.
        let zeroVariance = [try floats([1], [1]), try floats([1], [0]), try floats([1], [1]), try floats([1], [0])]
        assertClose(try evaluate(.batchNormalization(epsilon: 0.25), [try floats([1, 1, 2], [2, 0])] + zeroVariance)[0], [1, 1, 2], [2, -2])
    }

    func testLRN() throws {
        // x = [1, 2, 3] over channels, size 3, alpha / size = 1, beta 1, bias 1:
        // c0 window {0, 1}: 1 / (1 + 1 + 4) = 1/6; c1 {0, 1, 2}: 2 / (1 + 14) = 2/15; c2 {1, 2}: 3 / (1 + 13) = 3/14.
        let x = try floats([1, 3, 1, 1], [1, 2, 3])
        let odd = try evaluate1(.lrn(LRNAttributes(alpha: 3, beta: 1, bias: 1, size: 3)), x)
        assertClose(odd, [1, 3, 1, 1], [1.0 / 6, 2.0 / 15, 3.0 / 14])
        // Even size 2: the window is c ... c + 1 (floor((size-1)/2) = 0 before, ceil = 1 after).
        let even = try evaluate1(.lrn(LRNAttributes(alpha: 2, beta: 1, bias: 1, size: 2)), x)
        assertClose(even, [1, 3, 1, 1], [1.0 / 6, 2.0 / 14, 3.0 / 10])
        // beta 0.5 with bias 0: x / sqrt(alpha/size * Σx²) = x / |x| for size 1, alpha 1.
        let unit = try evaluate1(.lrn(LRNAttributes(alpha: 1, beta: 0.5, bias: 0, size: 1)), try floats([1, 2, 1, 2], [2, -3, 0.5, -4]))
        assertClose(unit, [1, 2, 1, 2], [1, -1, 1, -1])
    }

    func testSoftmaxAlongAxis() throws {
        let x = try floats([2, 3], [1, 2, 3, 0, 0, 0])
        let third: Float = 1.0 / 3
        assertClose(try evaluate1(.softmax(SoftmaxAttributes(axis: -1, coercedTo2D: false)), x), [2, 3],
                    [0.09003057, 0.24472847, 0.66524096, third, third, third])
        assertClose(try evaluate1(.logSoftmax(SoftmaxAttributes(axis: 1, coercedTo2D: false)), x), [2, 3],
                    [-2.40760596, -1.40760596, -0.40760596, -1.09861229, -1.09861229, -1.09861229])
        // Axis 0 (opset 13): each column separately; softmax([1, 3]) = [0.11920292, 0.88079708].
        let square = try floats([2, 2], [1, 2, 3, 4])
        assertClose(try evaluate1(.softmax(SoftmaxAttributes(axis: 0, coercedTo2D: false)), square), [2, 2],
                    [0.11920292, 0.11920292, 0.88079708, 0.88079708])
    }

    func testSoftmaxCoercedTo2D() throws {
        // Opset < 13 with axis 0: one softmax over all four values e^(1...4) / Σ.
        let square = try floats([2, 2], [1, 2, 3, 4])
        assertClose(try evaluate1(.softmax(SoftmaxAttributes(axis: 0, coercedTo2D: true)), square), [2, 2],
                    [0.0320586, 0.08714432, 0.23688282, 0.64391426])
        // 2×2×2 with axis 1: one softmax per batch item over its 4 values.
        let cube = try floats([2, 2, 2], [1, 2, 3, 4, 0, 0, 0, 0])
        assertClose(try evaluate1(.softmax(SoftmaxAttributes(axis: 1, coercedTo2D: true)), cube), [2, 2, 2],
                    [0.0320586, 0.08714432, 0.23688282, 0.64391426, 0.25, 0.25, 0.25, 0.25])
        // The opset-13 form on the same tensor normalizes pairs along axis 1 instead:
        // softmax([1, 3]) and softmax([2, 4]).
        assertClose(try evaluate1(.softmax(SoftmaxAttributes(axis: 1, coercedTo2D: false)), cube), [2, 2, 2],
                    [0.11920292, 0.11920292, 0.88079708, 0.88079708, 0.5, 0.5, 0.5, 0.5])
        // LogSoftmax coerced: log of the first case.
        assertClose(try evaluate1(.logSoftmax(SoftmaxAttributes(axis: 0, coercedTo2D: true)), square), [2, 2],
                    [-3.44018970, -2.44018970, -1.44018970, -0.44018970])
    }

    func testSoftmaxLargeInputsAreStable() throws {
        // softmax([1000, 1001]) = softmax([0, 1]) = [0.26894142, 0.73105858].
        let x = try floats([1, 2], [1000, 1001])
        assertClose(try evaluate1(.softmax(SoftmaxAttributes(axis: 1, coercedTo2D: false)), x), [1, 2], [0.26894142, 0.73105858])
        assertClose(try evaluate1(.logSoftmax(SoftmaxAttributes(axis: 1, coercedTo2D: false)), x), [1, 2], [-1.31326169, -0.31326169])
    }
}
