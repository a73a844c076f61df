// PLACEHOLDER: the reference-backend work replaces this file.
/// The reference backend: every operator in plain Swift.
public enum ReferenceBackend {
    static func evaluate(_ op: Op, inputs: [Tensor?], outputTypes: [TensorType]) throws -> [Tensor] {
        throw FoveaError(.unsupported, "\(op.typeName) is not written yet")
    }
}
