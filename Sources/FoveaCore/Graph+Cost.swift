extension Graph {
    /// Multiply-accumulate operations of one run, counting Conv, Gemm and MatMul
    /// (the layers that dominate a CNN; elementwise work is not counted), as
    /// model zoos quote it ("SqueezeNet 1.1: 350 M MACs").
    ///
    /// - Parameter types: value types from ``inferTypes(inputShapes:)``.
    public func multiplyAccumulateCount(types: [String: TensorType]) -> Int {
        nodes.reduce(0) { total, node in total + Self.multiplyAccumulates(of: node, types: types) }
    }

    /// Multiply-accumulates of one node (0 for the operators not counted).
    public static func multiplyAccumulates(of node: Node, types: [String: TensorType]) -> Int {
        guard let output = node.outputs.first.flatMap({ types[$0] }) else { return 0 }
        switch node.op {
        case .conv(let conv):
            // Every output element reads (C / group) × kernel-area inputs.
            guard let weight = node.input(1).flatMap({ types[$0] }), weight.shape.count >= 2 else { return 0 }
            let perOutput = weight.shape[1] * conv.kernelShape.elementCount
            return output.shape.elementCount * perOutput
        case .gemm(let gemm):
            guard let a = node.input(0).flatMap({ types[$0] }), a.shape.count == 2 else { return 0 }
            let k = gemm.transA ? a.shape[0] : a.shape[1]
            return output.shape.elementCount * k
        case .matMul:
            guard let a = node.input(0).flatMap({ types[$0] }), let k = a.shape.last else { return 0 }
            return output.shape.elementCount * k
        default:
            return 0
        }
    }
}
