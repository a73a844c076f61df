import CFoveaKernels
import FoveaCore

/// A Conv node as the C kernels see it: 2-D, float32 NCHW, constant weights.
struct ConvolutionShape: Sendable {
    let params: fovea_conv2d_params
    let activation: FusedActivation?
    /// Input 3 is a residual the output starts from (``ConvAttributes/addsResidual``).
    let addsResidual: Bool

    /// One group per input channel (any channel multiplier).
    var isDepthwise: Bool { params.groups == params.channels && params.groups > 1 }
    var isWinogradCandidate: Bool {
        params.groups == 1 && params.kernel_height == 3 && params.kernel_width == 3 && params.stride_height == 1
            && params.stride_width == 1 && params.dilation_height == 1 && params.dilation_width == 1
    }
    var isPointwise: Bool {
        params.kernel_height == 1 && params.kernel_width == 1 && params.stride_height == 1 && params.stride_width == 1
            && params.pad_top == 0 && params.pad_left == 0 && params.output_height == params.input_height && params.output_width == params.input_width
    }
    /// Elements of one output image.
    var outputImage: Int { Int(params.output_channels * params.output_height * params.output_width) }

    init(params: fovea_conv2d_params, activation: FusedActivation?, addsResidual: Bool = false) {
        self.params = params
        self.activation = activation
        self.addsResidual = addsResidual
    }

    /// The node's shape if the kernels can run it; throws (with the reason) otherwise.
    init(_ node: NodeContext) throws {
        guard case .conv(let attributes) = node.op else { throw FoveaError(.unsupported, "not a Conv") }
        guard let x = node.inputType(0), let w = node.inputType(1), let y = node.outputTypes.first,
              node.outputTypes.count == 1,
              x.dataType == .float32, w.dataType == .float32, y.dataType == .float32,
              x.shape.count == 4, w.shape.count == 4, y.shape.count == 4,
              let weights = node.constant(1), weights.shape == w.shape, weights.dataType == .float32 else {
            throw FoveaError(.unsupported, "the kernels Conv runs 2-D float32 NCHW convolutions with constant weights")
        }
        let group = attributes.group
        guard group >= 1, x.shape[1] % group == 0, w.shape[0] % group == 0, w.shape[1] * group == x.shape[1],
              x.shape.allSatisfy({ $0 >= 1 }), w.shape.allSatisfy({ $0 >= 1 }) else {
            throw FoveaError(.shapeMismatch, "Conv shapes X \(x.shape) and W \(w.shape) do not fit group \(group)")
        }
        if let b = node.inputType(2) {
            guard b.dataType == .float32, b.shape == [w.shape[0]] else {
                throw FoveaError(.shapeMismatch, "Conv bias has shape \(b.shape); expected [\(w.shape[0])]")
            }
        }
        let geometry = try SpatialGeometry(inputSize: Array(x.shape.dropFirst(2)), convolution: attributes, weightShape: w.shape)
        guard geometry.rank == 2, geometry.kernelShape == Array(w.shape.dropFirst(2)),
              geometry.padsBegin.allSatisfy({ $0 >= 0 }) else {
            throw FoveaError(.shapeMismatch, "Conv kernel_shape \(geometry.kernelShape) does not match W \(w.shape)")
        }
        let expected = [x.shape[0], w.shape[0]] + geometry.outputSize
        guard y.shape == expected else {
            throw FoveaError(.shapeMismatch, "Conv output is planned as \(y.shape); expected \(expected)")
        }
        params = fovea_conv2d_params(
            batch: x.shape[0], channels: x.shape[1], input_height: x.shape[2], input_width: x.shape[3],
            output_channels: w.shape[0], groups: group, output_height: y.shape[2], output_width: y.shape[3],
            kernel_height: w.shape[2], kernel_width: w.shape[3],
            stride_height: geometry.strides[0], stride_width: geometry.strides[1],
            dilation_height: geometry.dilations[0], dilation_width: geometry.dilations[1],
            pad_top: geometry.padsBegin[0], pad_left: geometry.padsBegin[1])
        var checked = params
        try KernelStatus.check(fovea_conv2d_check(&checked), "Conv")
        activation = attributes.activation
        addsResidual = attributes.addsResidual
        if addsResidual { try node.checkResidualMatchesOutput("kernels") }
    }

    /// What is fused into the step, for its algorithm: `" +add +relu"` and the like.
    var fusionSuffix: String {
        ConvAttributes.fusionSuffix(addsResidual: addsResidual, activation: activation)
    }
}
