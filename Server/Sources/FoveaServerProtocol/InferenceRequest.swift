/// One inference call, whichever front end (REST or gRPC) received it.
public struct InferenceRequest: Sendable {
    /// An output the client asks for, by name.
    public struct RequestedOutput: Sendable, Equatable {
        public var name: String
        /// The classification extension: the top `k` classes as
        /// `"score:index:label"` strings instead of the tensor.
        public var classification: Int?
        /// The binary data extension (REST): return the output as raw bytes after the JSON.
        public var binaryData: Bool

        public init(name: String, classification: Int? = nil, binaryData: Bool = false) {
            self.name = name
            self.classification = classification
            self.binaryData = binaryData
        }
    }

    /// Echoed in the response.
    public var id: String?
    public var inputs: [InferenceTensor]
    /// Empty: every output of the model.
    public var outputs: [RequestedOutput]
    /// The request-level `binary_data_output` parameter: every output as raw bytes.
    public var binaryDataOutput: Bool
    /// When the request's time is up (its arrival plus the request timeout):
    /// photo decoding stops there. `nil`: no limit.
    public var deadline: ContinuousClock.Instant?

    public init(id: String? = nil, inputs: [InferenceTensor], outputs: [RequestedOutput] = [], binaryDataOutput: Bool = false,
                deadline: ContinuousClock.Instant? = nil) {
        self.id = id
        self.inputs = inputs
        self.outputs = outputs
        self.binaryDataOutput = binaryDataOutput
        self.deadline = deadline
    }
}

/// The answer to an ``InferenceRequest``.
public struct InferenceResponse: Sendable {
    /// One output tensor and whether the client asked for it as raw bytes.
    public struct Output: Sendable, Equatable {
        public var tensor: InferenceTensor
        public var binaryData: Bool

        public init(tensor: InferenceTensor, binaryData: Bool = false) {
            self.tensor = tensor
            self.binaryData = binaryData
        }
    }

    public var modelName: String
    public var modelVersion: String
    public var id: String?
    public var outputs: [Output]

    public init(modelName: String, modelVersion: String, id: String?, outputs: [Output]) {
        self.modelName = modelName
        self.modelVersion = modelVersion
        self.id = id
        self.outputs = outputs
    }
}
