/// How a model stores its weights, for `fovea inspect` ("Weights: float16").
enum CoreMLWeightPrecision {
    /// Storage name → number of weights, over the layers that carry weights.
    static func tally(_ layers: [CoreML_Specification_NeuralNetworkLayer]) -> [String: Int] {
        var tally: [String: Int] = [:]
        for layer in layers {
            for params in weightParams(of: layer) {
                if let (name, count) = storage(of: params) { tally[name, default: 0] += count }
            }
        }
        return tally
    }

    private static func weightParams(of layer: CoreML_Specification_NeuralNetworkLayer) -> [CoreML_Specification_WeightParams] {
        switch layer.layer {
        case .convolution(let p): return [p.weights, p.bias]
        case .innerProduct(let p): return [p.weights, p.bias]
        case .batchnorm(let p): return [p.gamma, p.beta, p.mean, p.variance]
        case .scale(let p): return [p.scale, p.bias]
        case .bias(let p): return [p.bias]
        default: return []
        }
    }

    /// The storage of one weight blob and its value count; `nil` when empty.
    private static func storage(of p: CoreML_Specification_WeightParams) -> (String, Int)? {
        if !p.floatValue.isEmpty { return ("float32", p.floatValue.count) }
        if !p.float16Value.isEmpty { return ("float16", p.float16Value.count / 2) }
        guard !p.rawValue.isEmpty else { return nil }
        guard p.hasQuantization else { return ("float32", p.rawValue.count / 4) }
        let bits = Int(p.quantization.numberOfBits)
        let count = bits > 0 ? p.rawValue.count * 8 / bits : 0
        switch p.quantization.quantizationType {
        case .lookupTableQuantization: return ("\(bits)-bit lookup table", count)
        case .linearQuantization: return ("\(bits)-bit linear", count)
        default: return ("\(bits)-bit quantized", count)
        }
    }
}
