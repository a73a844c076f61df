/// One scale and zero point for a whole 8-bit tensor, both constant: what a
/// `QuantizeLinear` or `DequantizeLinear` node must have for the integer passes
/// (``FuseQuantizedConv``, ``FuseQuantizedDataMovement``) to fold it into an
/// integer step.
struct TensorQuantization: Equatable {
    /// Positive and finite.
    var scale: Float
    /// In ``type``'s range.
    var zeroPoint: Int
    /// `uint8` or `int8`.
    var type: DataType
    /// The initializers holding the scale and zero point (`nil` for an absent zero point).
    var scaleName: String
    var zeroPointName: String?

    /// Whether `other` maps integers to the same reals (names aside).
    func sameMapping(as other: TensorQuantization) -> Bool {
        scale == other.scale && zeroPoint == other.zeroPoint && type == other.type
    }

    /// `value` quantized: `saturate(roundHalfToEven(value / scale) + zeroPoint)`, as QuantizeLinear.
    func quantize(_ value: Float) -> Int {
        ReferenceQuantization.saturate(value / scale, zeroPoint: zeroPoint, type.quantizedRange ?? 0...255)
    }
}

extension GraphPatternIndex {
    /// The per-tensor constant quantization of a DequantizeLinear node (its
    /// input's) or a QuantizeLinear node (its output's); `nil` for a per-axis
    /// or run-time scale, a scale that is not positive and finite, or a
    /// DequantizeLinear without a zero point (whose input type the pass would not know).
    func tensorQuantization(of node: Node) -> TensorQuantization? {
        guard node.inputs.count >= 2, let scale = scalar(node.inputs[1]), scale.isFinite, scale > 0 else { return nil }
        let zeroPointName = node.inputs.count > 2 && !node.inputs[2].isEmpty ? node.inputs[2] : nil
        let zeroPoint = zeroPointName.flatMap { graph.initializers[$0] }
        if zeroPointName != nil {
            guard let zeroPoint, zeroPoint.count == 1, zeroPoint.shape.count <= 1, zeroPoint.dataType.quantizedRange != nil else { return nil }
        }
        let zero = zeroPoint?.quantizedIntegers?.first ?? 0
        switch node.op {
        case .dequantizeLinear:
            guard let zeroPoint else { return nil }
            return TensorQuantization(scale: scale, zeroPoint: zero, type: zeroPoint.dataType, scaleName: node.inputs[1], zeroPointName: zeroPointName)
        case .quantizeLinear(let attributes):
            guard attributes.outputType.quantizedRange != nil, zeroPoint == nil || zeroPoint?.dataType == attributes.outputType else { return nil }
            return TensorQuantization(scale: scale, zeroPoint: zero, type: attributes.outputType, scaleName: node.inputs[1], zeroPointName: zeroPointName)
        default:
            return nil
        }
    }

    /// The DequantizeLinear node producing `value` with a per-tensor constant
    /// quantization: its 8-bit input and that quantization. The node may have
    /// other readers; it is not claimed (``Graph/removingUnreadQuantization()`` drops it once unread).
    func dequantized(_ value: String) -> (integers: String, quantization: TensorQuantization)? {
        guard let index = producer[value] else { return nil }
        let node = graph.nodes[index]
        guard case .dequantizeLinear = node.op, node.outputs.count == 1, let quantization = tensorQuantization(of: node) else { return nil }
        return (node.inputs[0], quantization)
    }

    /// The QuantizeLinear node that is the only reader of `value` (not claimed),
    /// with a per-tensor constant quantization.
    func requantized(_ value: String) -> (index: Int, node: Node, quantization: TensorQuantization)? {
        guard let (index, node) = soleConsumer(of: value, { if case .quantizeLinear = $0 { return true } else { return false } }),
              node.inputs.first == value, let quantization = tensorQuantization(of: node) else { return nil }
        return (index, node, quantization)
    }
}

extension Graph {
    /// Removes QuantizeLinear and DequantizeLinear nodes whose outputs nothing
    /// reads any more (the integer passes reroute their readers to the 8-bit
    /// values), then the initializers only they read; returns whether it removed any.
    mutating func removingUnreadQuantization() -> Bool {
        var changed = false
        while true {
            let reads = readCounts()
            var removed = Set<Int>(), released: [String] = []
            for (index, node) in nodes.enumerated() {
                switch node.op {
                case .quantizeLinear, .dequantizeLinear:
                    guard node.outputs.allSatisfy({ reads[$0, default: 0] == 0 }) else { continue }
                    removed.insert(index)
                    released += node.inputs.filter { !$0.isEmpty }
                default:
                    continue
                }
            }
            guard removeNodes(at: removed) else { return changed }
            changed = true
            let stillRead = readCounts(), graphInputs = Set(inputs.map(\.name))
            for name in released where stillRead[name, default: 0] == 0 && !graphInputs.contains(name) { initializers[name] = nil }
        }
    }
}
