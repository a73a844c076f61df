import FoveaCore

/// Operators that only relabel a tensor's shape (Flatten, Reshape, Squeeze,
/// Unsqueeze, Identity, Dropout in inference): the planner makes the output
/// a view of the input, so the step has nothing to compute.
enum KernelsReshape: KernelsOperatorFamily {
    static func supports(_ node: NodeContext) -> Bool {
        // Dropout's optional mask output is a separate tensor; leave it to another backend.
        node.outputTypes.count == 1 && node.inputType(0) != nil
    }

    static func prepare(_ node: NodeContext, _ backend: KernelsBackend) throws -> any PreparedStep {
        ViewStep(opName: node.op.typeName)
    }

    /// Run on separate memory (no view planned), it copies the bytes.
    struct ViewStep: PreparedStep {
        let opName: String
        var algorithm: String { "view" }

        func run(_ buffers: StepBuffers, context: RunContext) throws {
            let x = try buffers.input(0, opName), y = buffers.outputs[0]
            guard x.base != y.base else { return }
            y.base.copyMemory(from: x.base, byteCount: Swift.min(x.count * x.dataType.byteSize, y.count * y.dataType.byteSize))
        }
    }
}
