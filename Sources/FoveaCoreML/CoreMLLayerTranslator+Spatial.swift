import FoveaCore

/// Convolution, pooling, padding, inner product and batchnorm layers.
extension CoreMLLayerTranslator {
    func convolution(_ p: CoreML_Specification_ConvolutionLayerParams, _ layer: CoreML_Specification_NeuralNetworkLayer) throws {
        guard !p.isDeconvolution else {
            throw FoveaError(.unsupported, "deconvolution (isDeconvolution) is not supported")
        }
        let x = try input(layer, 0, of: 1)
        let kernel = try Self.pair(p.kernelSize, "kernelSize", default: 3)
        let strides = try Self.pair(p.stride, "stride", default: 1)
        let dilations = try Self.pair(p.dilationFactor, "dilationFactor", default: 1)
        let groups = p.nGroups == 0 ? 1 : Int(clamping: p.nGroups)
        let outputChannels = Int(clamping: p.outputChannels), kernelChannels = Int(clamping: p.kernelChannels)
        guard outputChannels >= 1, kernelChannels >= 1, outputChannels <= 1 << 20, kernelChannels <= 1 << 20 else {
            throw FoveaError(.invalidAttribute, "outputChannels \(p.outputChannels) and kernelChannels \(p.kernelChannels) must be positive")
        }
        guard outputChannels % groups == 0 else {
            throw FoveaError(.invalidAttribute, "outputChannels \(outputChannels) is not a multiple of nGroups \(groups)")
        }
        let weightShape = [outputChannels, kernelChannels] + kernel
        let weights = try builder.constant("weights", shape: weightShape,
                                           values: try CoreMLWeights.decode(p.weights, count: weightShape.elementCount, role: "weights", channels: outputChannels))
        var inputs = [x, weights]
        if p.hasBias_p {
            inputs.append(try builder.constant("bias", shape: [outputChannels],
                                               values: try CoreMLWeights.decode(p.bias, count: outputChannels, role: "bias", channels: outputChannels)))
        }
        var attributes = ConvAttributes(kernelShape: kernel, strides: strides, dilations: dilations, pads: [0, 0, 0, 0], group: groups)
        switch p.convolutionPaddingType {
        case .valid(let valid): attributes.pads = try Self.pads(valid.hasPaddingAmounts ? valid.paddingAmounts : nil)
        case .same(let same): attributes.autoPad = same.asymmetryMode == .topLeftHeavy ? .sameLower : .sameUpper
        case nil: break
        }
        try builder.add(.conv(attributes), inputs: inputs, output: try output(layer))
    }

    func pooling(_ p: CoreML_Specification_PoolingLayerParams, _ layer: CoreML_Specification_NeuralNetworkLayer) throws {
        let x = try input(layer, 0, of: 1), y = try output(layer)
        guard p.type != .l2 else { throw FoveaError(.unsupported, "L2 pooling is not supported") }
        guard p.type == .max || p.type == .average else {
            throw FoveaError(.invalidAttribute, "pooling type \(p.type) is unknown")
        }
        if p.globalPooling {
            // kernelSize and stride are ignored (often written as 0).
            try builder.add(p.type == .max ? .globalMaxPool : .globalAveragePool, inputs: [x], output: y)
            return
        }
        var attributes = PoolAttributes(kernelShape: try Self.pair(p.kernelSize, "kernelSize", default: 3),
                                        strides: try Self.pair(p.stride, "stride", default: 1),
                                        dilations: [1, 1], pads: [0, 0, 0, 0],
                                        countIncludePad: !p.avgPoolExcludePadding)
        switch p.poolingPaddingType {
        case .valid(let valid): attributes.pads = try Self.pads(valid.hasPaddingAmounts ? valid.paddingAmounts : nil)
        case .same(let same): attributes.autoPad = same.asymmetryMode == .topLeftHeavy ? .sameLower : .sameUpper
        case .includeLastPixel(let complete):
            // Caffe-style: symmetric padding, output size rounded up.
            let amounts = complete.paddingAmounts.isEmpty ? [0, 0] : complete.paddingAmounts
            guard amounts.count == 2, amounts.allSatisfy({ $0 <= 1 << 20 }) else {
                throw FoveaError(.invalidAttribute, "includeLastPixel paddingAmounts is \(amounts); expected [H, W]")
            }
            let h = Int(amounts[0]), w = Int(amounts[1])
            attributes.pads = [h, w, h, w]
            attributes.ceilMode = true
        case nil: break
        }
        try builder.add(p.type == .max ? .maxPool(attributes) : .averagePool(attributes), inputs: [x], output: y)
    }

    func padding(_ p: CoreML_Specification_PaddingLayerParams, _ layer: CoreML_Specification_NeuralNetworkLayer) throws {
        let x = try input(layer, 0, of: 1), y = try output(layer)
        let amounts = try Self.pads(p.hasPaddingAmounts ? p.paddingAmounts : nil)
        // [top, left, bottom, right] over H, W -> begin/end over N, C, H, W.
        let pads = [0, 0, amounts[0], amounts[1], 0, 0, amounts[2], amounts[3]]
        switch p.paddingType {
        case .constant(let constant):
            try builder.add(.pad(pads: pads, value: constant.value, axes: nil), inputs: [x], output: y)
        case .reflection:
            try builder.add(.borderPad(pads: pads, mode: .reflect), inputs: [x], output: y)
        case .replication:
            try builder.add(.borderPad(pads: pads, mode: .edge), inputs: [x], output: y)
        case nil:
            throw FoveaError(.invalidModel, "padding layer has no padding type (constant, reflection or replication)")
        }
    }

    /// `[1, C, H, W]` -> flatten -> Gemm with `W [out, in]` -> `[1, out, 1, 1]`.
    func innerProduct(_ p: CoreML_Specification_InnerProductLayerParams, _ layer: CoreML_Specification_NeuralNetworkLayer) throws {
        guard !p.int8DynamicQuantize else {
            throw FoveaError(.unsupported, "int8DynamicQuantize (int8 inner product) is not supported")
        }
        let x = try input(layer, 0, of: 1), y = try output(layer)
        let inputChannels = Int(clamping: p.inputChannels), outputChannels = Int(clamping: p.outputChannels)
        guard inputChannels >= 1, outputChannels >= 1, inputChannels <= 1 << 24, outputChannels <= 1 << 24 else {
            throw FoveaError(.invalidAttribute, "inputChannels \(p.inputChannels) and outputChannels \(p.outputChannels) must be positive")
        }
        let shape = try builder.shape(of: x)
        guard shape.count == 4, shape[1] * shape[2] * shape[3] == inputChannels else {
            throw FoveaError(.shapeMismatch, "input '\(x)' is \(shape.shapeDescription); expected \(inputChannels) values per batch item (inputChannels)")
        }
        let weights = try builder.constant("weights", shape: [outputChannels, inputChannels],
                                           values: try CoreMLWeights.decode(p.weights, count: outputChannels * inputChannels, role: "weights", channels: outputChannels))
        var gemmInputs = [try builder.add(.flatten(axis: 1), inputs: [x], output: builder.temporary("flat"), suffix: "flatten"), weights]
        if p.hasBias_p {
            gemmInputs.append(try builder.constant("bias", shape: [outputChannels],
                                                   values: try CoreMLWeights.decode(p.bias, count: outputChannels, role: "bias", channels: outputChannels)))
        }
        let product = try builder.add(.gemm(GemmAttributes(transB: true)), inputs: gemmInputs, output: builder.temporary("gemm"))
        try builder.add(.reshape(shape: [shape[0], outputChannels, 1, 1], allowZero: false), inputs: [product], output: y, suffix: "reshape")
    }

    func batchnorm(_ p: CoreML_Specification_BatchnormLayerParams, _ layer: CoreML_Specification_NeuralNetworkLayer) throws {
        guard !p.computeMeanVar, !p.instanceNormalization else {
            throw FoveaError(.unsupported, "batchnorm with computeMeanVar or instanceNormalization (statistics computed at run time) is not supported")
        }
        let channels = Int(clamping: p.channels)
        guard channels >= 1, channels <= 1 << 24 else { throw FoveaError(.invalidAttribute, "channels is \(p.channels); expected >= 1") }
        var inputs = [try input(layer, 0, of: 1)]
        for (role, params) in [("gamma", p.gamma), ("beta", p.beta), ("mean", p.mean), ("variance", p.variance)] {
            inputs.append(try builder.constant(role, shape: [channels], values: try CoreMLWeights.decode(params, count: channels, role: role, channels: channels)))
        }
        try builder.add(.batchNormalization(epsilon: p.epsilon), inputs: inputs, output: try output(layer))
    }
}
