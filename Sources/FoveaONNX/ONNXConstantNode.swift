import FoveaCore

/// The value of an ONNX `Constant` node, which the loader turns into an initializer.
enum ONNXConstantNode {
    /// The tensor set by the one value attribute the node's opset allows:
    /// `value` (all opsets), `sparse_value` (11), `value_float(s)`,
    /// `value_int(s)`, `value_string(s)` (12).
    static func value(_ a: ONNXAttributes, inputCount: Int, opset: Int) throws -> Tensor {
        guard inputCount == 0 else {
            throw FoveaError(.invalidModel, "has \(inputCount) inputs; expected 0")
        }
        var forms = ["value"]
        if opset >= 11 { forms.append("sparse_value") }
        if opset >= 12 { forms += ["value_float", "value_floats", "value_int", "value_ints", "value_string", "value_strings"] }
        let present = forms.filter { a.has($0) }
        // A value attribute of a later opset is reported as unexpected, not as missing.
        try a.rejectUnread(opType: "Constant", opset: opset)
        guard present.count == 1, let form = present.first else {
            let found = present.isEmpty ? "none" : present.map { "'\($0)'" }.joined(separator: " and ")
            throw FoveaError(.invalidAttribute, "needs exactly one value attribute (\(forms.joined(separator: ", "))); found \(found)")
        }
        return try tensor(form, a)
    }

    private static func tensor(_ form: String, _ a: ONNXAttributes) throws -> Tensor {
        switch form {
        case "value":
            guard let proto = try a.tensor("value") else { throw missing(form) }
            return try ONNXTensorDecoder.decode(proto)
        case "value_float":
            guard let value = try a.float(form) else { throw missing(form) }
            return try Tensor(shape: [], floats: [value])
        case "value_floats":
            guard let values = try a.floats(form) else { throw missing(form) }
            return try Tensor(shape: [values.count], floats: values)
        case "value_int":
            guard let value = try a.int(form) else { throw missing(form) }
            return try Tensor(shape: [], int64s: [Int64(value)])
        case "value_ints":
            guard let values = try a.ints(form) else { throw missing(form) }
            return try Tensor(shape: [values.count], int64s: values.map { Int64($0) })
        case "sparse_value":
            throw FoveaError(.unsupported, "attribute 'sparse_value': sparse constants are not supported")
        default:
            throw FoveaError(.unsupported, "attribute '\(form)': string constants are not supported")
        }
    }

    private static func missing(_ form: String) -> FoveaError {
        FoveaError(.invalidAttribute, "attribute '\(form)' has no value")
    }
}
