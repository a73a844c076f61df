import FoveaCore

/// Translates Core ML NeuralNetwork layers into Fovea nodes.
///
/// Blobs are NCHW `[1, C, H, W]`: Core ML's rank-5 `[Seq, Batch, C, H, W]`
/// with Seq = Batch = 1, or the rank-4 blobs of `EXACT_ARRAY_MAPPING`.
struct CoreMLLayerTranslator {
    let builder: CoreMLGraphBuilder

    /// The Core ML name of a layer's type, for messages (`convolution`, `gelu`, ...).
    static func typeName(of layer: CoreML_Specification_NeuralNetworkLayer) -> String {
        guard let type = layer.layer else {
            return CoreMLLayerTypes.unknownType(of: layer)?.name ?? "no type"
        }
        switch type {
        case .convolution: return "convolution"
        case .pooling: return "pooling"
        case .activation: return "activation"
        case .innerProduct: return "innerProduct"
        case .batchnorm: return "batchnorm"
        case .softmax: return "softmax"
        case .lrn: return "lrn"
        case .padding: return "padding"
        case .unary: return "unary"
        case .add: return "add"
        case .multiply: return "multiply"
        case .average: return "average"
        case .scale: return "scale"
        case .bias: return "bias"
        case .reshape: return "reshape"
        case .flatten: return "flatten"
        case .permute: return "permute"
        case .concat: return "concat"
        case .copy: return "copy"
        case .clip: return "clip"
        case .tanh: return "tanh"
        case .clampedReLu: return "clampedReLU"
        }
    }

    func translate(_ layer: CoreML_Specification_NeuralNetworkLayer) throws {
        builder.layerName = layer.name
        guard let type = layer.layer else {
            if let unknown = CoreMLLayerTypes.unknownType(of: layer) {
                throw FoveaError(.unsupported, "layer type '\(unknown.name)' (NeuralNetworkLayer field \(unknown.field)) is not supported by Fovea")
            }
            throw FoveaError(.invalidModel, "the layer has no type")
        }
        switch type {
        case .convolution(let p): try convolution(p, layer)
        case .pooling(let p): try pooling(p, layer)
        case .activation(let p): try activation(p, layer)
        case .innerProduct(let p): try innerProduct(p, layer)
        case .batchnorm(let p): try batchnorm(p, layer)
        case .softmax:
            try builder.add(.softmax(SoftmaxAttributes(axis: 1, coercedTo2D: false)), inputs: [try input(layer, 0, of: 1)], output: try output(layer))
        case .lrn(let p):
            guard p.localSize >= 1 else { throw FoveaError(.invalidAttribute, "localSize is 0; expected >= 1") }
            let attributes = LRNAttributes(alpha: p.alpha, beta: p.beta, bias: p.k, size: Int(clamping: p.localSize))
            try builder.add(.lrn(attributes), inputs: [try input(layer, 0, of: 1)], output: try output(layer))
        case .padding(let p): try padding(p, layer)
        case .unary(let p): try unary(p, layer)
        case .add(let p): try elementwise(layer, op: .add, single: .linear(alpha: 1, beta: p.alpha))
        case .multiply(let p): try elementwise(layer, op: .mul, single: .linear(alpha: p.alpha, beta: 0))
        case .average: try average(layer)
        case .scale(let p): try scale(p, layer)
        case .bias(let p):
            let shape = try constantShape(p.shape, role: "shape")
            let b = try builder.constant("bias", shape: shape, values: try CoreMLWeights.decode(p.bias, count: shape.elementCount, role: "bias"))
            try builder.add(.add, inputs: [try input(layer, 0, of: 1), b], output: try output(layer))
        case .reshape(let p): try reshape(p, layer)
        case .flatten(let p): try flatten(p, layer)
        case .permute(let p): try permute(p, layer)
        case .concat(let p):
            guard !p.sequenceConcat else {
                throw FoveaError(.unsupported, "sequenceConcat (concatenation along the sequence axis) is not supported")
            }
            guard !layer.input.isEmpty else { throw FoveaError(.invalidModel, "concat has no inputs") }
            try builder.add(.concat(axis: 1), inputs: layer.input, output: try output(layer))
        case .copy:
            try builder.add(.identity, inputs: [try input(layer, 0, of: 1)], output: try output(layer))
        case .clip(let p):
            try builder.add(.clip(min: p.minVal, max: p.maxVal), inputs: [try input(layer, 0, of: 1)], output: try output(layer))
        case .tanh:
            try builder.add(.unary(.tanh), inputs: [try input(layer, 0, of: 1)], output: try output(layer))
        case .clampedReLu(let p):
            // min(beta, x >= 0 ? x : alpha * x)
            try builder.chain([.leakyRelu(alpha: p.alpha), .clip(min: nil, max: p.beta)], input: try input(layer, 0, of: 1), output: try output(layer))
        }
    }

    // MARK: - Inputs and outputs

    /// Input `index` of a layer that takes exactly `count` inputs.
    func input(_ layer: CoreML_Specification_NeuralNetworkLayer, _ index: Int, of count: Int) throws -> String {
        guard layer.input.count == count else {
            throw FoveaError(.invalidModel, "has \(layer.input.count) inputs; expected \(count)")
        }
        return layer.input[index]
    }

    /// The single output blob.
    func output(_ layer: CoreML_Specification_NeuralNetworkLayer) throws -> String {
        guard layer.output.count == 1 else {
            throw FoveaError(.invalidModel, "has \(layer.output.count) outputs; expected 1")
        }
        return layer.output[0]
    }

    /// A constant's NCHW-broadcastable shape from a Core ML `[C]`, `[1]` or `[C, H, W]` shape.
    func constantShape(_ shape: [UInt64], role: String) throws -> [Int] {
        let dims = shape.map { Int(clamping: $0) }
        guard dims.allSatisfy({ $0 >= 1 }) else {
            throw FoveaError(.invalidAttribute, "\(role) \(dims) has a zero dimension")
        }
        switch dims.count {
        case 1: return [dims[0], 1, 1]
        case 3: return dims
        default:
            throw FoveaError(.invalidAttribute, "\(role) \(dims) has \(dims.count) dimensions; expected [C] or [C, H, W]")
        }
    }

    /// `kernelSize`, `stride` or `dilationFactor`: two values `[H, W]`, or the default when empty.
    static func pair(_ values: [UInt64], _ name: String, default value: Int) throws -> [Int] {
        if values.isEmpty { return [value, value] }
        guard values.count == 2, values.allSatisfy({ $0 >= 1 && $0 <= 1 << 20 }) else {
            throw FoveaError(.invalidAttribute, "\(name) is \(values); expected two positive values [H, W]")
        }
        return values.map { Int($0) }
    }

    /// `BorderAmounts` as ONNX-style pads `[top, left, bottom, right]`.
    static func pads(_ amounts: CoreML_Specification_BorderAmounts?) throws -> [Int] {
        guard let edges = amounts?.borderAmounts, !edges.isEmpty else { return [0, 0, 0, 0] }
        guard edges.count == 2 else {
            throw FoveaError(.invalidAttribute, "paddingAmounts has \(edges.count) entries; expected 2 ([H, W])")
        }
        let values = [edges[0].startEdgeSize, edges[1].startEdgeSize, edges[0].endEdgeSize, edges[1].endEdgeSize]
        guard values.allSatisfy({ $0 <= 1 << 20 }) else {
            throw FoveaError(.invalidAttribute, "paddingAmounts \(values) is out of range")
        }
        return values.map { Int($0) }
    }
}
