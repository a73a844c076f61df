import FoveaCore

/// Turns the nodes of a Fovea graph into Core ML NeuralNetwork layers: the
/// inverse of ``CoreMLLayerTranslator`` for the operators of common image
/// classifiers (convolution, activations, pooling, concat, add, batchnorm,
/// LRN, flatten, fully connected, softmax). Dropout and Identity become
/// aliases. Weights are written once, as float32.
struct CoreMLLayerWriter {
    let graph: Graph
    private(set) var layers: [CoreML_Specification_NeuralNetworkLayer] = []
    /// Value names replaced by others (the input of a removed Dropout, a renamed input).
    private var aliases: [String: String] = [:]

    init(graph: Graph) {
        self.graph = graph
    }

    /// The Core ML blob that holds `value`.
    func blob(_ value: String) -> String { aliases[value] ?? value }

    mutating func alias(_ value: String, to blob: String) { aliases[value] = blob }

    mutating func append(_ name: String, _ inputs: [String], _ output: String,
                         _ configure: (inout CoreML_Specification_NeuralNetworkLayer) -> Void) {
        var layer = CoreML_Specification_NeuralNetworkLayer()
        layer.name = name
        layer.input = inputs.map(blob)
        layer.output = [output]
        configure(&layer)
        layers.append(layer)
    }

    /// Appends the layers of every node.
    mutating func writeNodes() throws {
        for node in graph.nodes {
            try FoveaError.at(graph.location(of: node)) { try write(node) }
        }
    }

    private func constant(_ node: Node, _ index: Int, _ role: String) throws -> Tensor {
        guard let name = node.input(index), let tensor = graph.initializers[name], tensor.dataType == .float32 else {
            throw FoveaError(.unsupported, "the \(role) must be a float constant to be written to Core ML")
        }
        return tensor
    }

    private static func weights(_ tensor: Tensor) -> CoreML_Specification_WeightParams {
        var params = CoreML_Specification_WeightParams()
        params.floatValue = tensor.floats ?? []
        return params
    }

    private static func weights(_ values: [Float]) -> CoreML_Specification_WeightParams {
        var params = CoreML_Specification_WeightParams()
        params.floatValue = values
        return params
    }

    /// `[top, left, bottom, right]` as Core ML border amounts (H then W).
    private static func border(_ pads: [Int]) -> CoreML_Specification_BorderAmounts {
        var amounts = CoreML_Specification_BorderAmounts()
        amounts.borderAmounts = [(pads[0], pads[2]), (pads[1], pads[3])].map { start, end in
            var edge = CoreML_Specification_BorderAmounts.EdgeSizes()
            edge.startEdgeSize = UInt64(start)
            edge.endEdgeSize = UInt64(end)
            return edge
        }
        return amounts
    }

    private mutating func write(_ node: Node) throws {
        let output = node.outputs[0]
        let x = node.input(0) ?? ""
        func activation(_ set: (inout CoreML_Specification_ActivationParams) -> Void) {
            append(node.name, [x], output) { layer in
                var params = CoreML_Specification_ActivationParams()
                set(&params)
                layer.activation = params
            }
        }
        switch node.op {
        case .dropout, .identity:
            alias(output, to: blob(x))
        case .conv(let a):
            guard a.kernelShape.count == 2, a.activation == nil, !a.addsResidual else {
                throw FoveaError(.unsupported, "only 2-D convolutions without fused operations can be written to Core ML")
            }
            let w = try constant(node, 1, "convolution weights")
            let bias = try node.input(2).map { _ in try constant(node, 2, "convolution bias") }
            var params = CoreML_Specification_ConvolutionLayerParams()
            params.outputChannels = UInt64(w.shape[0])
            params.kernelChannels = UInt64(w.shape[1])
            params.nGroups = UInt64(a.group)
            params.kernelSize = a.kernelShape.map(UInt64.init)
            params.stride = a.strides.map(UInt64.init)
            params.dilationFactor = a.dilations.map(UInt64.init)
            switch a.autoPad {
            case .notSet, .valid:
                var valid = CoreML_Specification_ValidPadding()
                valid.paddingAmounts = Self.border(a.autoPad == .valid ? [0, 0, 0, 0] : a.pads)
                params.valid = valid
            case .sameUpper, .sameLower:
                var same = CoreML_Specification_SamePadding()
                same.asymmetryMode = a.autoPad == .sameLower ? .topLeftHeavy : .bottomRightHeavy
                params.same = same
            }
            params.weights = Self.weights(w)
            if let bias {
                params.hasBias_p = true
                params.bias = Self.weights(bias)
            }
            append(node.name, [x], output) { $0.convolution = params }
        case .relu:
            activation { $0.reLu = .init() }
        case .leakyRelu(let alpha):
            activation { var p = CoreML_Specification_ActivationLeakyReLU(); p.alpha = alpha; $0.leakyReLu = p }
        case .sigmoid:
            activation { $0.sigmoid = .init() }
        case .clip(let low, let high):
            var params = CoreML_Specification_ClipLayerParams()
            params.minVal = low ?? -Float.greatestFiniteMagnitude
            params.maxVal = high ?? Float.greatestFiniteMagnitude
            append(node.name, [x], output) { $0.clip = params }
        case .maxPool(let a), .averagePool(let a):
            guard a.kernelShape.count == 2, a.dilations.allSatisfy({ $0 == 1 }) else {
                throw FoveaError(.unsupported, "only 2-D pooling without dilation can be written to Core ML")
            }
            var params = CoreML_Specification_PoolingLayerParams()
            if case .maxPool = node.op { params.type = .max } else { params.type = .average }
            params.kernelSize = a.kernelShape.map(UInt64.init)
            params.stride = a.strides.map(UInt64.init)
            params.avgPoolExcludePadding = !a.countIncludePad
            switch a.autoPad {
            case .sameUpper, .sameLower:
                var same = CoreML_Specification_SamePadding()
                same.asymmetryMode = a.autoPad == .sameLower ? .topLeftHeavy : .bottomRightHeavy
                params.same = same
            case .notSet, .valid:
                let pads = a.autoPad == .valid ? [0, 0, 0, 0] : a.pads
                if a.ceilMode {
                    // Core ML's "include last pixel" is Caffe's rounding up, with symmetric padding.
                    guard pads[0] == pads[2], pads[1] == pads[3] else {
                        throw FoveaError(.unsupported, "ceil-mode pooling with asymmetric padding cannot be written to Core ML")
                    }
                    var complete = CoreML_Specification_PoolingLayerParams.ValidCompletePadding()
                    complete.paddingAmounts = [UInt64(pads[0]), UInt64(pads[1])]
                    params.includeLastPixel = complete
                } else {
                    var valid = CoreML_Specification_ValidPadding()
                    valid.paddingAmounts = Self.border(pads)
                    params.valid = valid
                }
            }
            append(node.name, [x], output) { $0.pooling = params }
        case .globalAveragePool, .globalMaxPool:
            var params = CoreML_Specification_PoolingLayerParams()
            params.type = node.op == .globalMaxPool ? .max : .average
            params.globalPooling = true
            append(node.name, [x], output) { $0.pooling = params }
        case .concat(let axis):
            guard axis == 1 || axis == -3 else { throw FoveaError(.unsupported, "only a channel Concat (axis 1) can be written to Core ML") }
            append(node.name, node.inputs, output) { $0.concat = .init() }
        case .add where node.inputs.count == 2 && graph.initializers[node.inputs[1]] != nil:
            // A per-channel constant: Core ML's bias layer.
            let constant = try constant(node, 1, "bias")
            var params = CoreML_Specification_BiasLayerParams()
            params.shape = try Self.channelShape(constant)
            params.bias = Self.weights(constant)
            append(node.name, [x], output) { $0.bias = params }
        case .mul where node.inputs.count == 2 && graph.initializers[node.inputs[1]] != nil:
            // A per-channel constant: Core ML's scale layer.
            let constant = try constant(node, 1, "scale")
            var params = CoreML_Specification_ScaleLayerParams()
            params.shapeScale = try Self.channelShape(constant)
            params.scale = Self.weights(constant)
            append(node.name, [x], output) { $0.scale = params }
        case .add:
            guard node.inputs.allSatisfy({ graph.initializers[$0] == nil }) else {
                throw FoveaError(.unsupported, "an Add of a constant first input cannot be written to Core ML")
            }
            append(node.name, node.inputs, output) { $0.add = .init() }
        case .batchNormalization(let epsilon):
            var params = CoreML_Specification_BatchnormLayerParams()
            let gamma = try constant(node, 1, "scale")
            params.channels = UInt64(gamma.count)
            params.epsilon = epsilon
            params.gamma = Self.weights(gamma)
            params.beta = Self.weights(try constant(node, 2, "bias"))
            params.mean = Self.weights(try constant(node, 3, "mean"))
            params.variance = Self.weights(try constant(node, 4, "variance"))
            append(node.name, [x], output) { $0.batchnorm = params }
        case .lrn(let a):
            var params = CoreML_Specification_LRNLayerParams()
            params.alpha = a.alpha
            params.beta = a.beta
            params.k = a.bias
            params.localSize = UInt64(a.size)
            append(node.name, [x], output) { $0.lrn = params }
        case .flatten(let axis):
            guard axis == 1 else { throw FoveaError(.unsupported, "only Flatten with axis 1 can be written to Core ML") }
            append(node.name, [x], output) { $0.flatten = .init() }
        case .gemm(let a):
            guard a.alpha == 1, a.beta == 1, !a.transA else {
                throw FoveaError(.unsupported, "only a Gemm with alpha 1, beta 1 and no transA can be written to Core ML")
            }
            let w = try constant(node, 1, "Gemm weights")
            guard w.rank == 2, let values = w.floats else { throw FoveaError(.unsupported, "the Gemm weights must be 2-D") }
            // Core ML stores [out, in]; ONNX's B is [in, out] unless transB.
            let (inputs, outputs) = a.transB ? (w.shape[1], w.shape[0]) : (w.shape[0], w.shape[1])
            let rows = a.transB ? values : (0..<outputs).flatMap { o in (0..<inputs).map { i in values[i * outputs + o] } }
            try writeInnerProduct(node.name, input: x, output: output, inputs: inputs, weights: rows,
                                  bias: try node.input(2).map { _ in try constant(node, 2, "Gemm bias").floats ?? [] })
        case .softmax:
            append(node.name, [x], output) { $0.softmax = .init() }
        default:
            throw FoveaError(.unsupported, "\(node.op.typeName) cannot be written to Core ML yet (supported: Conv, Relu, LeakyRelu, Sigmoid, Clip, MaxPool, AveragePool, GlobalAveragePool, GlobalMaxPool, Concat, Add, Mul by a constant, BatchNormalization, LRN, Flatten, Gemm, Softmax, Dropout, Identity)")
        }
    }

    /// A constant's shape as Core ML's scale and bias layers take it: `[1]`,
    /// `[C]` or `[C, H, W]` (a leading batch dimension of 1 is dropped).
    private static func channelShape(_ tensor: Tensor) throws -> [UInt64] {
        var shape = tensor.shape
        if shape.count == 4, shape[0] == 1 { shape.removeFirst() }
        if shape.count == 3, shape[1] == 1, shape[2] == 1 { shape = [shape[0]] }
        guard shape.count == 1 || shape.count == 3 else {
            throw FoveaError(.unsupported, "a constant of shape \(tensor.shape.shapeDescription) cannot be written as a Core ML scale or bias")
        }
        return shape.map(UInt64.init)
    }

    /// A fully connected layer: `weights` is `[out, in]`, row-major.
    mutating func writeInnerProduct(_ name: String, input: String, output: String, inputs: Int, weights: [Float], bias: [Float]?) throws {
        var params = CoreML_Specification_InnerProductLayerParams()
        params.inputChannels = UInt64(inputs)
        params.outputChannels = UInt64(weights.count / max(inputs, 1))
        params.weights = Self.weights(weights)
        if let bias {
            guard bias.count == Int(params.outputChannels) else {
                throw FoveaError(.unsupported, "a bias of \(bias.count) values for \(params.outputChannels) outputs cannot be written to Core ML")
            }
            params.hasBias_p = true
            params.bias = Self.weights(bias)
        }
        append(name, [input], output) { $0.innerProduct = params }
    }

    /// A per-channel `x × scale + bias` layer (the normalization Core ML's image scaler cannot carry).
    mutating func writeScale(_ name: String, input: String, output: String, scale: [Float], bias: [Float]) {
        var params = CoreML_Specification_ScaleLayerParams()
        params.shapeScale = [UInt64(scale.count), 1, 1]
        params.scale = Self.weights(scale)
        params.hasBias_p = true
        params.shapeBias = [UInt64(bias.count), 1, 1]
        params.bias = Self.weights(bias)
        append(name, [input], output) { $0.scale = params }
    }
}
