import FoveaCore

/// Operators that only relabel a tensor's shape (Flatten, Reshape, Squeeze,
/// Unsqueeze, Identity, Dropout in inference): the elements are shared, not copied.
enum SIMDReshape: SIMDOperatorFamily {
    static func supports(_ node: NodeContext) -> Bool {
        // Dropout's optional mask output is a separate tensor; leave it to the reference.
        node.outputTypes.count == 1
    }

    static func prepare(_ node: NodeContext) throws -> any PreparedStep {
        guard let shape = node.outputTypes.first?.shape else {
            throw FoveaError(.invalidModel, "\(node.op.typeName) has no output")
        }
        return ReshapeStep(shape: shape, opName: node.op.typeName)
    }

    /// The executor plans the output as a view of the input and does not run
    /// the step; run anyway (on separate memory), it copies the bytes.
    struct ReshapeStep: PreparedStep {
        let shape: [Int]
        let opName: String
        var algorithm: String { "view" }

        func run(_ buffers: StepBuffers, context: RunContext) throws {
            let x = try buffers.input(0, opName)
            let y = buffers.outputs[0]
            guard x.base != y.base else { return }
            y.base.copyMemory(from: x.base, byteCount: Swift.min(x.count * x.dataType.byteSize, y.count * y.dataType.byteSize))
        }
    }
}
