import FoveaServerProtocol

/// A tensor as model metadata lists it: name, protocol datatype and shape,
/// with -1 for a dimension of any size (the batch, when the server batches).
public struct TensorMetadata: Sendable, Equatable {
    public var name: String
    public var datatype: InferenceDatatype
    public var shape: [Int]

    public init(name: String, datatype: InferenceDatatype, shape: [Int]) {
        self.name = name
        self.datatype = datatype
        self.shape = shape
    }
}

/// What `GET /v2/models/{name}` and gRPC ModelMetadata answer.
public struct ModelMetadata: Sendable, Equatable {
    public var name: String
    public var versions: [String]
    /// `fovea_onnx` or `fovea_coreml`.
    public var platform: String
    public var inputs: [TensorMetadata]
    public var outputs: [TensorMetadata]
}
