import FoveaCore

/// ONNX `TensorProto.DataType` codes: their names, and the Fovea type each one
/// loads as.
enum ONNXDataType {
    /// The Fovea element type an ONNX data type code is loaded as, or `nil` if
    /// Fovea does not read that type. Floating types become float32, integer
    /// types that carry shapes and indices become int64 (INT32 too: exporters
    /// write shapes and indices in it, and Fovea's shape and index operators
    /// compute on int64; quantized operators accept int64 where ONNX has an
    /// INT32 bias or input, and check its range). UINT8 and INT8 (quantized
    /// values) load as themselves.
    static func foveaType(_ code: Int32) -> DataType? {
        switch Onnx_TensorProto.DataType(rawValue: Int(code)) {
        case .float, .double, .float16: return .float32
        case .int64, .int32: return .int64
        case .bool: return .bool
        case .uint8: return .uint8
        case .int8: return .int8
        default: return nil
        }
    }

    /// The ONNX spelling of a data type code, such as `FLOAT16`, for messages.
    static func name(_ code: Int32) -> String {
        guard let type = Onnx_TensorProto.DataType(rawValue: Int(code)) else {
            return "data type \(code)"
        }
        switch type {
        case .undefined: return "UNDEFINED"
        case .float: return "FLOAT"
        case .uint8: return "UINT8"
        case .int8: return "INT8"
        case .uint16: return "UINT16"
        case .int16: return "INT16"
        case .int32: return "INT32"
        case .int64: return "INT64"
        case .string: return "STRING"
        case .bool: return "BOOL"
        case .float16: return "FLOAT16"
        case .double: return "DOUBLE"
        case .uint32: return "UINT32"
        case .uint64: return "UINT64"
        case .complex64: return "COMPLEX64"
        case .complex128: return "COMPLEX128"
        case .bfloat16: return "BFLOAT16"
        case .float8E4M3Fn: return "FLOAT8E4M3FN"
        case .float8E4M3Fnuz: return "FLOAT8E4M3FNUZ"
        case .float8E5M2: return "FLOAT8E5M2"
        case .float8E5M2Fnuz: return "FLOAT8E5M2FNUZ"
        case .uint4: return "UINT4"
        case .int4: return "INT4"
        case .float4E2M1: return "FLOAT4E2M1"
        case .float8E8M0: return "FLOAT8E8M0"
        case .uint2: return "UINT2"
        case .int2: return "INT2"
        case .float6E2M3: return "FLOAT6E2M3"
        case .float6E3M2: return "FLOAT6E3M2"
        }
    }

    /// The list of readable types, for "expected ..." messages.
    static let supportedNames = "FLOAT, DOUBLE, FLOAT16, INT64, INT32, UINT8, INT8 or BOOL"
}
