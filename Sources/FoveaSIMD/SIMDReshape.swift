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
        return ReshapeStep(shape: shape)
    }

    struct ReshapeStep: PreparedStep {
        let shape: [Int]
        var algorithm: String { "view" }

        func run(_ inputs: [Tensor?], context: RunContext) throws -> [Tensor] {
            guard let x = inputs.first ?? nil else {
                throw FoveaError(.invalidModel, "required input 0 is missing")
            }
            return [try x.reshaped(shape)]
        }
    }
}
