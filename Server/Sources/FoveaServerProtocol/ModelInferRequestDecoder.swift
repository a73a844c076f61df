import Foundation

/// Reads the protocol's gRPC ModelInfer message: tensors as
/// `raw_input_contents` (the same layout as REST's binary data) or typed
/// `contents`, every declared size checked by ``TensorSize`` before use.
public enum ModelInferRequestDecoder {
    /// The protocol request of a gRPC ModelInfer message.
    public static func decode(_ message: Inference_ModelInferRequest, limit: Int) throws -> InferenceRequest {
        let size = tensorBytes(message)
        guard size <= limit else {
            throw InferenceError(.tooLarge, "the request's tensors hold \(size) bytes; the limit is \(limit)")
        }
        let raw = message.rawInputContents
        guard raw.isEmpty || raw.count == message.inputs.count else {
            throw InferenceError.invalid("raw_input_contents has \(raw.count) entries for \(message.inputs.count) inputs")
        }
        let inputs = try message.inputs.enumerated().map { index, input -> InferenceTensor in
            let datatype = try InferenceDatatype.parse(input.datatype, input: input.name)
            let shape = input.shape.map { Int(clamping: $0) }
            let count = try TensorSize.elementCount(shape, name: input.name)
            let elements = raw.isEmpty
                ? try typedContents(input.contents, datatype: datatype, name: input.name)
                : try RawTensorData.decode(raw[index], datatype: datatype, count: count, name: input.name)
            return try InferenceTensor(name: input.name, shape: shape, elements: elements)
        }
        let outputs = try message.outputs.map { output -> InferenceRequest.RequestedOutput in
            var classification: Int?
            if let parameter = output.parameters["classification"] {
                guard case .int64Param(let k)? = parameter.parameterChoice else {
                    throw InferenceError.invalid("output '\(output.name)': \"classification\" must be an int64 parameter")
                }
                classification = Int(clamping: k)
            }
            return .init(name: output.name, classification: classification)
        }
        return InferenceRequest(id: message.id.isEmpty ? nil : message.id, inputs: inputs, outputs: outputs)
    }

    /// The bytes of tensor data a ModelInfer message carries, raw or typed.
    public static func tensorBytes(_ message: Inference_ModelInferRequest) -> Int {
        // Counts of what was received, summed with clamping (TensorSize): never wraps.
        var total = message.rawInputContents.reduce(0) { TensorSize.sum($0, $1.count) }
        for input in message.inputs {
            let contents = input.contents
            total = TensorSize.sum(total, TensorSize.product(4, contents.fp32Contents.count + contents.intContents.count + contents.uintContents.count))
            total = TensorSize.sum(total, TensorSize.product(8, contents.int64Contents.count + contents.uint64Contents.count + contents.fp64Contents.count))
            total = TensorSize.sum(total, contents.boolContents.count)
            total = contents.bytesContents.reduce(total) { TensorSize.sum($0, $1.count) }
        }
        return total
    }

    private static func typedContents(_ contents: Inference_InferTensorContents, datatype: InferenceDatatype, name: String) throws -> InferenceTensor.Elements {
        switch datatype {
        case .fp32: return .fp32(contents.fp32Contents)
        case .int64: return .int64(contents.int64Contents)
        case .bool: return .bool(contents.boolContents)
        case .bytes: return .bytes(contents.bytesContents)
        default:
            throw InferenceError.invalid("input '\(name)': datatype \(datatype.rawValue) is not supported (Fovea takes FP32, INT64, BOOL, and BYTES for photos)")
        }
    }
}
