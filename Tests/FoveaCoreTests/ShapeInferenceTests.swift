import XCTest
@testable import FoveaCore

/// `Op.outputTypes`: output shapes for every operator, and the errors for inputs that do not fit.
final class ShapeInferenceTests: XCTestCase {
    private let conv3x3 = ConvAttributes(kernelShape: [3, 3], strides: [1, 1], dilations: [1, 1], pads: [1, 1, 1, 1])

    func testConvolution() throws {
        XCTAssertEqual(try inferred(.conv(conv3x3), [f32([2, 3, 8, 8]), f32([16, 3, 3, 3]), f32([16])]), [f32([2, 16, 8, 8])])
        // Kernel shape omitted: taken from W. Stride 2, no pads: (224 - 3) / 2 + 1 = 111.
        let strided = ConvAttributes(kernelShape: [], strides: [2, 2], dilations: [1, 1], pads: [0, 0, 0, 0])
        XCTAssertEqual(try inferred(.conv(strided), [f32([1, 3, 224, 224]), f32([64, 3, 3, 3]), nil]), [f32([1, 64, 111, 111])])
        // Groups: 4 channels in 2 groups → W has 2 input channels per group.
        var grouped = conv3x3
        grouped.group = 2
        XCTAssertEqual(try inferred(.conv(grouped), [f32([1, 4, 5, 5]), f32([6, 2, 3, 3])]), [f32([1, 6, 5, 5])])
        // 1-D and 3-D.
        let conv1d = ConvAttributes(kernelShape: [3], strides: [1], dilations: [1], pads: [0, 0])
        XCTAssertEqual(try inferred(.conv(conv1d), [f32([1, 2, 10]), f32([4, 2, 3])]), [f32([1, 4, 8])])
        let conv3d = ConvAttributes(kernelShape: [1, 2, 3], strides: [1, 1, 1], dilations: [1, 1, 1], pads: [0, 0, 0, 0, 0, 0])
        XCTAssertEqual(try inferred(.conv(conv3d), [f32([1, 2, 4, 4, 4]), f32([3, 2, 1, 2, 3])]), [f32([1, 3, 4, 3, 2])])
    }

    func testConvolutionErrors() {
        // X has 3 channels, W expects 4.
        assertFoveaError(.shapeMismatch, "W is 8×4×3×3", "X (1×3×8×8) has 3 channels") {
            try inferred(.conv(self.conv3x3), [f32([1, 3, 8, 8]), f32([8, 4, 3, 3])])
        }
        assertFoveaError(.shapeMismatch, "B is 7", "expected 8") {
            try inferred(.conv(self.conv3x3), [f32([1, 3, 8, 8]), f32([8, 3, 3, 3]), f32([7])])
        }
        assertFoveaError(.shapeMismatch, "kernel_shape") {
            try inferred(.conv(self.conv3x3), [f32([1, 3, 8, 8]), f32([8, 3, 5, 5])])
        }
        assertFoveaError(.shapeMismatch, "expected rank 4") {
            try inferred(.conv(self.conv3x3), [f32([1, 3, 8, 8]), f32([8, 3, 3])])
        }
        var badGroup = conv3x3
        badGroup.group = 0
        assertFoveaError(.invalidAttribute, "'group' is 0") {
            try inferred(.conv(badGroup), [f32([1, 3, 8, 8]), f32([8, 3, 3, 3])])
        }
        badGroup.group = 2
        assertFoveaError(.shapeMismatch, "3 channels in 2 group") {
            try inferred(.conv(badGroup), [f32([1, 3, 8, 8]), f32([8, 1, 3, 3])])
        }
        assertFoveaError(.unsupported, "int64", "float32") {
            try inferred(.conv(self.conv3x3), [TensorType(.int64, [1, 3, 8, 8]), f32([8, 3, 3, 3])])
        }
        assertFoveaError(.unsupported, "4 spatial axes") {
            try inferred(.conv(self.conv3x3), [f32([1, 1, 2, 2, 2, 2]), f32([1, 1, 1, 1, 1, 1])])
        }
        assertFoveaError(.invalidModel, "required input 1 (W) is missing") {
            try inferred(.conv(self.conv3x3), [f32([1, 3, 8, 8]), nil])
        }
        assertFoveaError(.shapeMismatch, "smaller than the dilated kernel") {
            try inferred(.conv(ConvAttributes(kernelShape: [], strides: [], dilations: [], pads: [])), [f32([1, 1, 2, 2]), f32([1, 1, 3, 3])])
        }
    }

    func testPooling() throws {
        let pool = PoolAttributes(kernelShape: [3, 3], strides: [2, 2], dilations: [1, 1], pads: [0, 0, 0, 0], ceilMode: true)
        // SqueezeNet 1.0's pools: 109 → ceil((109 - 3) / 2) + 1 = 54.
        XCTAssertEqual(try inferred(.maxPool(pool), [f32([1, 96, 109, 109])]), [f32([1, 96, 54, 54])])
        XCTAssertEqual(try inferred(.averagePool(pool), [f32([3, 2, 5, 5])]), [f32([3, 2, 2, 2])])
        XCTAssertEqual(try inferred(.maxPool(pool), [f32([1, 1, 5, 5])], outputCount: 2),
                       [f32([1, 1, 2, 2]), TensorType(.int64, [1, 1, 2, 2])])
        XCTAssertEqual(try inferred(.globalAveragePool, [f32([2, 5, 7, 7])]), [f32([2, 5, 1, 1])])
        XCTAssertEqual(try inferred(.globalMaxPool, [f32([2, 5, 3, 4, 6])]), [f32([2, 5, 1, 1, 1])])
        XCTAssertEqual(try inferred(.globalMaxPool, [f32([2, 5, 7])]), [f32([2, 5, 1])])

        assertFoveaError(.invalidAttribute, "kernel_shape", "expected 2") {
            try inferred(.maxPool(PoolAttributes(kernelShape: [3], strides: [], dilations: [], pads: [])), [f32([1, 1, 5, 5])])
        }
        assertFoveaError(.invalidModel, "AveragePool produces 1") {
            try inferred(.averagePool(pool), [f32([1, 1, 5, 5])], outputCount: 2)
        }
        assertFoveaError(.shapeMismatch, "expected rank 3 to 5") {
            try inferred(.maxPool(pool), [f32([5, 5])])
        }
        assertFoveaError(.shapeMismatch, "expected rank >= 2") {
            try inferred(.globalAveragePool, [f32([5])])
        }
    }

    func testElementwise() throws {
        for op: Op in [.relu, .leakyRelu(alpha: 0.1), .sigmoid, .hardSigmoid(alpha: 0.2, beta: 0.5), .hardSwish, .clip(min: 0, max: 6)] {
            XCTAssertEqual(try inferred(op, [f32([2, 3])]), [f32([2, 3])], op.typeName)
        }
        // numpy broadcasting: 2×1×4 with 3×1 → 2×3×4.
        XCTAssertEqual(try inferred(.add, [f32([2, 1, 4]), f32([3, 1])]), [f32([2, 3, 4])])
        XCTAssertEqual(try inferred(.div, [f32([]), f32([5])]), [f32([5])])
        XCTAssertEqual(try inferred(.sum, [f32([3]), f32([2, 1]), f32([])]), [f32([2, 3])])
        XCTAssertEqual(try inferred(.prelu, [f32([1, 3, 4, 4]), f32([3, 1, 1])]), [f32([1, 3, 4, 4])])

        assertFoveaError(.shapeMismatch, "2×3", "4", "cannot be broadcast") {
            try inferred(.mul, [f32([2, 3]), f32([4])])
        }
        assertFoveaError(.shapeMismatch, "slope is 3", "broadcasts to X (1×3×4×4)") {
            // A per-channel slope must be 3×1×1 (numpy broadcasting from the right).
            try inferred(.prelu, [f32([1, 3, 4, 4]), f32([3])])
        }
        assertFoveaError(.unsupported, "int64") {
            try inferred(.relu, [TensorType(.int64, [2])])
        }
        assertFoveaError(.invalidModel, "Relu produces 1") {
            try inferred(.relu, [f32([2])], outputCount: 2)
        }
    }

    func testMatrices() throws {
        let gemm = GemmAttributes(alpha: 1, beta: 1, transA: false, transB: true)
        XCTAssertEqual(try inferred(.gemm(gemm), [f32([2, 512]), f32([10, 512]), f32([10])]), [f32([2, 10])])
        XCTAssertEqual(try inferred(.gemm(GemmAttributes(transA: true)), [f32([4, 2]), f32([4, 3]), nil]), [f32([2, 3])])
        assertFoveaError(.shapeMismatch, "inner dimensions differ") {
            try inferred(.gemm(GemmAttributes()), [f32([2, 3]), f32([4, 5])])
        }
        assertFoveaError(.shapeMismatch, "C is 3", "2×2") {
            try inferred(.gemm(GemmAttributes()), [f32([2, 3]), f32([3, 2]), f32([3])])
        }
        assertFoveaError(.shapeMismatch, "two matrices") {
            try inferred(.gemm(GemmAttributes()), [f32([2, 3, 1]), f32([3, 2])])
        }
        // MatMul: 1-D operands lose their promoted axis; batch axes broadcast.
        XCTAssertEqual(try inferred(.matMul, [f32([3]), f32([3])]), [f32([])])
        XCTAssertEqual(try inferred(.matMul, [f32([3]), f32([2, 3, 4])]), [f32([2, 4])])
        XCTAssertEqual(try inferred(.matMul, [f32([2, 5, 3]), f32([3])]), [f32([2, 5])])
        XCTAssertEqual(try inferred(.matMul, [f32([2, 1, 5, 3]), f32([4, 3, 6])]), [f32([2, 4, 5, 6])])
        assertFoveaError(.shapeMismatch, "inner dimensions differ (3 vs 4)") {
            try inferred(.matMul, [f32([5, 3]), f32([4, 6])])
        }
        assertFoveaError(.shapeMismatch, "batch dimensions 2 and 3 cannot be broadcast") {
            try inferred(.matMul, [f32([2, 5, 3]), f32([3, 3, 6])])
        }
    }

    func testNormalization() throws {
        let x = f32([2, 3, 4, 4])
        XCTAssertEqual(try inferred(.batchNormalization(epsilon: 1e-5), [x, f32([3]), f32([3]), f32([3]), f32([3])]), [x])
        assertFoveaError(.shapeMismatch, "input_mean is 4", "expected 3") {
            try inferred(.batchNormalization(epsilon: 1e-5), [x, f32([3]), f32([3]), f32([4]), f32([3])])
        }
        XCTAssertEqual(try inferred(.lrn(LRNAttributes(size: 5)), [x]), [x])
        assertFoveaError(.invalidAttribute, "'size' is 0") {
            try inferred(.lrn(LRNAttributes(size: 0)), [x])
        }
        XCTAssertEqual(try inferred(.softmax(SoftmaxAttributes(axis: -1, coercedTo2D: false)), [x]), [x])
        assertFoveaError(.invalidAttribute, "axis 4 is out of range for rank 4") {
            try inferred(.logSoftmax(SoftmaxAttributes(axis: 4, coercedTo2D: true)), [x])
        }
    }

    func testLayout() throws {
        let x = f32([2, 3, 4])
        XCTAssertEqual(try inferred(.concat(axis: 1), [x, f32([2, 5, 4])]), [f32([2, 8, 4])])
        XCTAssertEqual(try inferred(.concat(axis: -1), [TensorType(.int64, [2]), TensorType(.int64, [3])]), [TensorType(.int64, [5])])
        assertFoveaError(.shapeMismatch, "input 1 is 2×5×5", "except along axis 1") {
            try inferred(.concat(axis: 1), [x, f32([2, 5, 5])])
        }
        assertFoveaError(.shapeMismatch, "data type int64") {
            try inferred(.concat(axis: 0), [f32([2]), TensorType(.int64, [2])])
        }
        assertFoveaError(.invalidAttribute, "axis 3 is out of range") {
            try inferred(.concat(axis: 3), [x, x])
        }

        XCTAssertEqual(try inferred(.flatten(axis: 1), [x]), [f32([2, 12])])
        XCTAssertEqual(try inferred(.flatten(axis: 0), [x]), [f32([1, 24])])
        XCTAssertEqual(try inferred(.flatten(axis: 3), [x]), [f32([24, 1])])
        XCTAssertEqual(try inferred(.flatten(axis: -1), [x]), [f32([6, 4])])
        assertFoveaError(.invalidAttribute, "'axis' is 4") { try inferred(.flatten(axis: 4), [x]) }

        XCTAssertEqual(try inferred(.reshape(shape: [0, -1], allowZero: false), [x]), [f32([2, 12])])
        // 0 copies the input's dimension 0 (2); -1 takes what is left: 24 / (2 * 2) = 6.
        XCTAssertEqual(try inferred(.reshape(shape: [0, 2, -1], allowZero: false), [x]), [f32([2, 2, 6])])
        XCTAssertEqual(try inferred(.reshape(shape: [0, 4], allowZero: true), [f32([3, 0])]), [f32([0, 4])])
        assertFoveaError(.invalidAttribute, "more than one -1") {
            try inferred(.reshape(shape: [-1, -1], allowZero: false), [x])
        }
        assertFoveaError(.shapeMismatch, "cannot reshape 2×3×4 (24 elements) to [5, -1]") {
            try inferred(.reshape(shape: [5, -1], allowZero: false), [x])
        }
        assertFoveaError(.shapeMismatch, "to [5, 5]") {
            try inferred(.reshape(shape: [5, 5], allowZero: false), [x])
        }
        assertFoveaError(.invalidAttribute, "both 0 and -1") {
            try inferred(.reshape(shape: [0, -1], allowZero: true), [x])
        }
        assertFoveaError(.invalidAttribute, "below -1") {
            try inferred(.reshape(shape: [-2, 12], allowZero: false), [x])
        }
        assertFoveaError(.invalidAttribute, "too many elements") {
            try inferred(.reshape(shape: [Int.max, 2, -1], allowZero: false), [x])
        }

        XCTAssertEqual(try inferred(.squeeze(axes: nil), [f32([1, 3, 1, 2])]), [f32([3, 2])])
        XCTAssertEqual(try inferred(.squeeze(axes: [-2]), [f32([1, 3, 1, 2])]), [f32([1, 3, 2])])
        assertFoveaError(.shapeMismatch, "cannot squeeze axis 1", "its size is 3") {
            try inferred(.squeeze(axes: [1]), [f32([1, 3, 1, 2])])
        }
        XCTAssertEqual(try inferred(.unsqueeze(axes: [0, -1]), [x]), [f32([1, 2, 3, 4, 1])])
        XCTAssertEqual(try inferred(.unsqueeze(axes: [3, 1]), [f32([2, 3])]), [f32([2, 1, 3, 1])])
        assertFoveaError(.invalidAttribute, "repeat axis") {
            try inferred(.unsqueeze(axes: [1, 1]), [x])
        }
        assertFoveaError(.invalidAttribute, "axis 5 is out of range", "gives rank 4") {
            try inferred(.unsqueeze(axes: [5]), [x])
        }

        XCTAssertEqual(try inferred(.transpose(perm: nil), [x]), [f32([4, 3, 2])])
        XCTAssertEqual(try inferred(.transpose(perm: [1, 0, 2]), [x]), [f32([3, 2, 4])])
        assertFoveaError(.invalidAttribute, "'perm' is [0, 0, 1]") {
            try inferred(.transpose(perm: [0, 0, 1]), [x])
        }

        XCTAssertEqual(try inferred(.pad(pads: [0, 1, 1, 0, 2, -1], value: 0, axes: nil), [x]), [f32([2, 6, 4])])
        XCTAssertEqual(try inferred(.pad(pads: [1, 1], value: 0, axes: [-1]), [x]), [f32([2, 3, 6])])
        assertFoveaError(.invalidAttribute, "'pads' has 2 values; expected 6") {
            try inferred(.pad(pads: [1, 1], value: 0, axes: nil), [x])
        }
        assertFoveaError(.shapeMismatch, "below zero size") {
            try inferred(.pad(pads: [-2, -1], value: 0, axes: [0]), [x])
        }
        assertFoveaError(.invalidAttribute, "not an int64") {
            try inferred(.pad(pads: [1, 1], value: 0.5, axes: nil), [TensorType(.int64, [2])])
        }
        // A file's pads may not grow a tensor past what planning can count (a fuzzer
        // found an edge Pad of 2^62 channels, which then overflowed Flatten).
        assertFoveaError(.invalidAttribute, "more than 2147483648 elements") {
            try inferred(.borderPad(pads: [0, 1 << 62, 0, 0, 0, 0, 0, 1], mode: .edge), [f32([1, 8, 4, 4])])
        }
        assertFoveaError(.invalidAttribute, "overflow axis 1") {
            try inferred(.borderPad(pads: [0, Int.max, 0, 0, 0, 1, 0, 0], mode: .edge), [f32([1, 8, 4, 4])])
        }
        assertFoveaError(.invalidAttribute, "more than 2147483648 elements") {
            try inferred(.pad(pads: [1 << 20, 1 << 20, 1 << 20, 0, 0, 0], value: 0, axes: nil), [x])
        }
        XCTAssertEqual(try inferred(.borderPad(pads: [0, 0, 2, 2, 0, 0, 2, 2], mode: .edge), [f32([1, 8, 4, 4])]), [f32([1, 8, 8, 8])])
        assertFoveaError(.invalidAttribute, "has a value beyond") {
            try inferred(.pad(pads: [Int.min, 0], value: 0, axes: [0]), [x])
        }

        XCTAssertEqual(try inferred(.dropout, [x], outputCount: 2), [x, TensorType(.bool, [2, 3, 4])])
        XCTAssertEqual(try inferred(.identity, [TensorType(.bool, [2])]), [TensorType(.bool, [2])])
        XCTAssertEqual(try inferred(.shape(start: 0, end: nil), [x]), [TensorType(.int64, [3])])
        XCTAssertEqual(try inferred(.shape(start: -10, end: 10), [x]), [TensorType(.int64, [3])])
        XCTAssertEqual(try inferred(.shape(start: 2, end: 1), [x]), [TensorType(.int64, [0])])
    }
}
