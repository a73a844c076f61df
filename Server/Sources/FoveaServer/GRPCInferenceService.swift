import Foundation
import GRPCCore

/// `inference.GRPCInferenceService`: the protocol's gRPC form over the same
/// ``InferenceServer`` as REST. Tensors go in as `raw_input_contents` or
/// typed `contents`, and come back as `raw_output_contents`, as Triton does.
struct GRPCInferenceService: Inference_GRPCInferenceService.SimpleServiceProtocol {
    let server: InferenceServer

    func serverLive(request: Inference_ServerLiveRequest, context: ServerContext) async throws -> Inference_ServerLiveResponse {
        .with { $0.live = server.isLive }
    }

    func serverReady(request: Inference_ServerReadyRequest, context: ServerContext) async throws -> Inference_ServerReadyResponse {
        .with { $0.ready = server.isReady }
    }

    func modelReady(request: Inference_ModelReadyRequest, context: ServerContext) async throws -> Inference_ModelReadyResponse {
        let ready = try rpc { try server.isModelReady(name: request.name, version: request.version) }
        return .with { $0.ready = ready }
    }

    func serverMetadata(request: Inference_ServerMetadataRequest, context: ServerContext) async throws -> Inference_ServerMetadataResponse {
        .with {
            $0.name = InferenceServer.name
            $0.version = InferenceServer.version
            $0.extensions = InferenceServer.extensions
        }
    }

    func modelMetadata(request: Inference_ModelMetadataRequest, context: ServerContext) async throws -> Inference_ModelMetadataResponse {
        let metadata = try rpc { try server.modelMetadata(name: request.name, version: request.version) }
        func tensors(_ list: [TensorMetadata]) -> [Inference_ModelMetadataResponse.TensorMetadata] {
            list.map { tensor in .with { $0.name = tensor.name; $0.datatype = tensor.datatype.rawValue; $0.shape = tensor.shape.map(Int64.init) } }
        }
        return .with {
            $0.name = metadata.name
            $0.versions = metadata.versions
            $0.platform = metadata.platform
            $0.inputs = tensors(metadata.inputs)
            $0.outputs = tensors(metadata.outputs)
        }
    }

    func modelInfer(request: Inference_ModelInferRequest, context: ServerContext) async throws -> Inference_ModelInferResponse {
        let decoded: InferenceRequest
        do {
            decoded = try Self.inferenceRequest(request, limit: server.limits.maxRequestBytes)
        } catch {
            throw Self.rpcError(server.recordFailure(model: request.modelName, protocolName: "grpc", id: request.id, error))
        }
        do {
            let response = try await server.infer(model: request.modelName, version: request.modelVersion, request: decoded, protocolName: "grpc")
            return .with {
                $0.modelName = response.modelName
                $0.modelVersion = response.modelVersion
                $0.id = response.id ?? ""
                $0.outputs = response.outputs.map { output in
                    .with { $0.name = output.tensor.name; $0.datatype = output.tensor.datatype.rawValue; $0.shape = output.tensor.shape.map(Int64.init) }
                }
                $0.rawOutputContents = response.outputs.map { RawTensorData.encode($0.tensor.elements) }
            }
        } catch {
            throw Self.rpcError(InferenceServer.protocolError(error))
        }
    }

    /// The protocol request of a gRPC ModelInfer message.
    static func inferenceRequest(_ message: Inference_ModelInferRequest, limit: Int) throws -> InferenceRequest {
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
            guard shape.allSatisfy({ $0 >= 0 }) else { throw InferenceError.invalid("input '\(input.name)': shape \(shape) has a negative dimension") }
            let count = try RESTRequestDecoder.elementCount(shape, name: input.name)
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
    static func tensorBytes(_ message: Inference_ModelInferRequest) -> Int {
        message.rawInputContents.reduce(0) { $0 + $1.count } + message.inputs.reduce(0) { total, input in
            let contents = input.contents
            return total + 4 * (contents.fp32Contents.count + contents.intContents.count + contents.uintContents.count)
                + 8 * (contents.int64Contents.count + contents.uint64Contents.count + contents.fp64Contents.count)
                + contents.boolContents.count + contents.bytesContents.reduce(0) { $0 + $1.count }
        }
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

    private func rpc<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch { throw Self.rpcError(InferenceServer.protocolError(error)) }
    }

    static func rpcError(_ error: InferenceError) -> RPCError {
        let code: RPCError.Code
        switch error.kind {
        case .invalidArgument: code = .invalidArgument
        case .notFound: code = .notFound
        case .tooLarge: code = .resourceExhausted
        case .timeout: code = .deadlineExceeded
        case .unavailable: code = .unavailable
        case .internalError: code = .internalError
        }
        return RPCError(code: code, message: error.message)
    }
}
