import FoveaCore

/// Activations, unary functions, arithmetic and layout layers.
extension CoreMLLayerTranslator {
    func activation(_ p: CoreML_Specification_ActivationParams, _ layer: CoreML_Specification_NeuralNetworkLayer) throws {
        let x = try input(layer, 0, of: 1), y = try output(layer)
        guard let type = p.nonlinearityType else { throw FoveaError(.invalidModel, "activation has no type") }
        let ops: [Op]
        switch type {
        case .linear(let a): ops = [.unary(.linear(alpha: a.alpha, beta: a.beta))]
        case .reLu: ops = [.relu]
        case .leakyReLu(let a): ops = [.leakyRelu(alpha: a.alpha)]
        case .thresholdedReLu(let a): ops = [.unary(.thresholdedRelu(alpha: a.alpha))]
        case .preLu(let a):
            let channels = try builder.shape(of: x)[1]
            // One slope per channel (or one for all), broadcast over H and W.
            let count = (try? CoreMLWeights.decode(a.alpha, count: 1, role: "alpha")) != nil ? 1 : channels
            let slope = try builder.constant("alpha", shape: count == 1 ? [1] : [channels, 1, 1],
                                             values: try CoreMLWeights.decode(a.alpha, count: count, role: "alpha", channels: count))
            try builder.add(.prelu, inputs: [x, slope], output: y)
            return
        case .tanh: ops = [.unary(.tanh)]
        case .scaledTanh(let a): ops = [.unary(.linear(alpha: a.beta, beta: 0)), .unary(.tanh), .unary(.linear(alpha: a.alpha, beta: 0))]
        case .sigmoid: ops = [.sigmoid]
        case .sigmoidHard(let a): ops = [.hardSigmoid(alpha: a.alpha, beta: a.beta)]
        case .elu(let a): ops = [.unary(.elu(alpha: a.alpha))]
        case .softsign: ops = [.unary(.softsign)]
        case .softplus: ops = [.unary(.softplus)]
        case .parametricSoftplus:
            throw FoveaError(.unsupported, "activation parametricSoftplus is not supported")
        }
        try builder.chain(ops, input: x, output: y)
    }

    /// `f(scale × x + shift)`; a `scale` of 0 means 1 and an `epsilon` of 0 means 1e-6 (NeuralNetwork.proto).
    func unary(_ p: CoreML_Specification_UnaryFunctionLayerParams, _ layer: CoreML_Specification_NeuralNetworkLayer) throws {
        let x = try input(layer, 0, of: 1), y = try output(layer)
        let scale = p.scale == 0 ? 1 : p.scale
        let epsilon = p.epsilon == 0 ? Float(1e-6) : p.epsilon
        let function: UnaryFunction
        switch p.type {
        case .sqrt: function = .sqrt
        case .rsqrt: function = .rsqrt(epsilon: epsilon)
        case .inverse: function = .reciprocal(epsilon: epsilon)
        case .power: function = .power(exponent: p.alpha)
        case .exp: function = .exp
        case .log: function = .log(epsilon: epsilon)
        case .abs: function = .abs
        case .threshold: function = .threshold(alpha: p.alpha)
        case .UNRECOGNIZED(let value):
            throw FoveaError(.unsupported, "unary operation \(value) is unknown")
        }
        var ops: [Op] = []
        if scale != 1 || p.shift != 0 { ops.append(.unary(.linear(alpha: scale, beta: p.shift))) }
        ops.append(.unary(function))
        try builder.chain(ops, input: x, output: y)
    }

    /// `add` and `multiply`: one input goes through `single` (which carries the
    /// layer's `alpha`); several combine with each other (broadcasting).
    func elementwise(_ layer: CoreML_Specification_NeuralNetworkLayer, op: Op, single: UnaryFunction) throws {
        let y = try output(layer)
        switch layer.input.count {
        case 0:
            throw FoveaError(.invalidModel, "has no inputs")
        case 1:
            try builder.add(.unary(single), inputs: layer.input, output: y)
        default:
            var current = layer.input[0]
            for index in 1..<layer.input.count {
                let isLast = index == layer.input.count - 1
                current = try builder.add(op, inputs: [current, layer.input[index]],
                                          output: isLast ? y : builder.temporary("partial\(index)"),
                                          suffix: index == 1 ? nil : "\(index)")
            }
        }
    }

    func average(_ layer: CoreML_Specification_NeuralNetworkLayer) throws {
        guard !layer.input.isEmpty else { throw FoveaError(.invalidModel, "has no inputs") }
        let total = try builder.add(.sum, inputs: layer.input, output: builder.temporary("sum"))
        try builder.add(.unary(.linear(alpha: 1 / Float(layer.input.count), beta: 0)), inputs: [total], output: try output(layer), suffix: "mean")
    }

    func scale(_ p: CoreML_Specification_ScaleLayerParams, _ layer: CoreML_Specification_NeuralNetworkLayer) throws {
        let x = try input(layer, 0, of: 1), y = try output(layer)
        let scaleShape = try constantShape(p.shapeScale, role: "shapeScale")
        let s = try builder.constant("scale", shape: scaleShape, values: try CoreMLWeights.decode(p.scale, count: scaleShape.elementCount, role: "scale", channels: scaleShape[0]))
        guard p.hasBias_p else {
            try builder.add(.mul, inputs: [x, s], output: y)
            return
        }
        let biasShape = try constantShape(p.shapeBias, role: "shapeBias")
        let b = try builder.constant("bias", shape: biasShape, values: try CoreMLWeights.decode(p.bias, count: biasShape.elementCount, role: "bias", channels: biasShape[0]))
        let scaled = try builder.add(.mul, inputs: [x, s], output: builder.temporary("scaled"))
        try builder.add(.add, inputs: [scaled, b], output: y, suffix: "bias")
    }

    /// `targetShape` is `[C, H, W]` or `[Seq, C, H, W]` (Seq must be 1).
    func reshape(_ p: CoreML_Specification_ReshapeLayerParams, _ layer: CoreML_Specification_NeuralNetworkLayer) throws {
        let x = try input(layer, 0, of: 1), y = try output(layer)
        var target = p.targetShape.map { Int(clamping: $0) }
        if target.count == 4 {
            guard target[0] == 1 else {
                throw FoveaError(.unsupported, "reshape to sequence length \(target[0]) is not supported; Fovea runs Seq = 1")
            }
            target.removeFirst()
        }
        guard target.count == 3, target.allSatisfy({ $0 >= 1 }) else {
            throw FoveaError(.invalidAttribute, "targetShape \(p.targetShape) must be [C, H, W] or [1, C, H, W] with positive sizes")
        }
        let shape = try builder.shape(of: x)
        if p.mode == .channelFirst {
            try builder.add(.reshape(shape: [shape[0]] + target, allowZero: false), inputs: [x], output: y)
        } else {
            // CHANNEL_LAST: reshape the [H, W, C] order, then go back to channels first.
            try builder.chain([.transpose(perm: [0, 2, 3, 1]),
                               .reshape(shape: [shape[0], target[1], target[2], target[0]], allowZero: false),
                               .transpose(perm: [0, 3, 1, 2])], input: x, output: y)
        }
    }

    func flatten(_ p: CoreML_Specification_FlattenLayerParams, _ layer: CoreML_Specification_NeuralNetworkLayer) throws {
        let x = try input(layer, 0, of: 1), y = try output(layer)
        let shape = try builder.shape(of: x)
        guard shape.count == 4 else { throw FoveaError(.shapeMismatch, "input '\(x)' is \(shape.shapeDescription); expected NCHW") }
        let flat = Op.reshape(shape: [shape[0], shape[1] * shape[2] * shape[3], 1, 1], allowZero: false)
        if p.mode == .channelFirst {
            try builder.add(flat, inputs: [x], output: y)
        } else {
            try builder.chain([.transpose(perm: [0, 2, 3, 1]), flat], input: x, output: y)
        }
    }

    /// `axis` permutes `[Seq, C, H, W]`; the sequence axis must stay first.
    func permute(_ p: CoreML_Specification_PermuteLayerParams, _ layer: CoreML_Specification_NeuralNetworkLayer) throws {
        let axes = p.axis.map { Int(clamping: $0) }
        guard axes.count == 4, Set(axes) == [0, 1, 2, 3] else {
            throw FoveaError(.invalidAttribute, "axis \(p.axis) is not a permutation of [0, 1, 2, 3]")
        }
        guard axes[0] == 0 else {
            throw FoveaError(.unsupported, "permute moving the sequence axis (axis \(p.axis)) is not supported")
        }
        try builder.add(.transpose(perm: axes), inputs: [try input(layer, 0, of: 1)], output: try output(layer))
    }
}
