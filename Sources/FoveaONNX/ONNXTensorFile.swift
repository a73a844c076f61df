import Foundation
import FoveaCore

/// Reads ONNX `TensorProto` files: the `input_N.pb` / `output_N.pb` of the ONNX
/// conformance suite, and tensors given to `fovea run`.
///
/// FLOAT, DOUBLE and FLOAT16 load as float32, INT64 and INT32 as int64, UINT8 and
/// INT8 as themselves, BOOL as bool, from `raw_data` or the typed fields, as for model initializers.
public enum ONNXTensorFile {
    /// Reads the tensor stored at `path`.
    ///
    /// - Returns: The tensor's name (`""` when the file gives none) and value.
    /// - Throws: `FoveaError` (`.io`, `.invalidModel`, `.unsupported`) naming the file.
    public static func read(contentsOf path: String) throws -> (name: String, tensor: Tensor) {
        let data = try readFile(path, what: "tensor (TensorProto)")
        return try FoveaError.at(FoveaError.Location(file: path)) { try decode(data: data) }
    }

    /// Decodes the bytes of a serialized `TensorProto`.
    public static func decode(data: Data) throws -> (name: String, tensor: Tensor) {
        let proto = try decodeProtobuf(Onnx_TensorProto.self, from: data, what: "ONNX tensor (TensorProto)")
        return (proto.name, try ONNXTensorDecoder.decode(proto))
    }
}
