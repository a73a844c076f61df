/// The protocol's tensor datatypes (`"FP32"`, `"INT64"`, ...). Fovea models
/// take and return FP32, INT64 and BOOL tensors; BYTES carries encoded photos
/// in and classification strings out. The other datatypes are named so that a
/// request using one gets a clear "not supported" error, not "unknown".
public enum InferenceDatatype: String, Sendable, CaseIterable {
    case bool = "BOOL"
    case uint8 = "UINT8", uint16 = "UINT16", uint32 = "UINT32", uint64 = "UINT64"
    case int8 = "INT8", int16 = "INT16", int32 = "INT32", int64 = "INT64"
    case fp16 = "FP16", fp32 = "FP32", fp64 = "FP64"
    case bytes = "BYTES"

    /// Parses a datatype name, or throws the protocol error that names the valid ones.
    public static func parse(_ name: String, input: String) throws -> InferenceDatatype {
        guard let datatype = InferenceDatatype(rawValue: name) else {
            throw InferenceError.invalid("input '\(input)': unknown datatype '\(name)' (the protocol's are \(allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return datatype
    }
}
