import Foundation
import GRPCCore
import FoveaServerProtocol

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

    /// One inference call: admitted unless draining, its memory reserved (the
    /// message is already read; its decoded copies are not yet made), its
    /// tensors converted on the worker threads, its time counted from its arrival.
    func modelInfer(request: Inference_ModelInferRequest, context: ServerContext) async throws -> Inference_ModelInferResponse {
        let arrival = ContinuousClock.now
        let server = self.server
        do {
            let response = try await server.recording(model: request.modelName, protocolName: "grpc", id: request.id) {
                try await server.admitted {
                    let bytes = ModelInferRequestDecoder.tensorBytes(request)
                    return try await server.memory.holding(TensorSize.product(bytes, InflightMemory.binaryBytesPerByte)) {
                        let limit = server.limits.maxRequestBytes
                        var decoded = try await server.workers.run { try ModelInferRequestDecoder.decode(request, limit: limit) }
                        decoded.deadline = server.deadline(from: arrival)
                        return try await server.run(model: request.modelName, version: request.modelVersion, request: decoded, protocolName: "grpc")
                    }
                }
            }
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
        case .exhausted: code = .resourceExhausted
        case .clientDisconnected: code = .cancelled
        case .internalError: code = .internalError
        }
        return RPCError(code: code, message: error.message)
    }
}
