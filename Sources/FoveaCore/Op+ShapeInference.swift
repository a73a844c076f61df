// PLACEHOLDER: the reference-backend work replaces this file.
extension Op {
    /// The types of a node's outputs given the types of its inputs (`nil` for absent optional inputs).
    func outputTypes(inputs: [TensorType?], outputCount: Int) throws -> [TensorType] {
        throw FoveaError(.unsupported, "shape inference for \(typeName) is not written yet")
    }
}
