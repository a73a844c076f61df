import Foundation
import FoveaBatching
import Logging

/// The protocol's operations, whichever front end calls them: health,
/// metadata and inference over the model repository, counted in the metrics
/// and logged. The REST and gRPC front ends only translate to and from it.
public final class InferenceServer: Sendable {
    /// The name `GET /v2` and ServerMetadata report.
    public static let name = "fovea"
    /// The server's version.
    public static let version = "0.1.0"
    /// The protocol extensions served (`GET /v2`'s `extensions`).
    public static let extensions = ["binary_tensor_data", "classification"]

    public let repository: ModelRepository
    public let metrics: ServerMetrics
    public let limits: ServerLimits
    let logger: Logger
    private let state = ServerState()

    public init(repository: ModelRepository, metrics: ServerMetrics, limits: ServerLimits = ServerLimits(), logger: Logger) {
        self.repository = repository
        self.metrics = metrics
        self.limits = limits
        self.logger = logger
    }

    /// Live while the process runs.
    public var isLive: Bool { true }

    /// Ready until shutdown begins (every model is loaded before the server starts).
    public var isReady: Bool { !state.isShuttingDown }

    /// Marks the server not ready (health checks fail, so load balancers drain it)
    /// and stops the batchers once their queued requests have run.
    public func shutdown() {
        state.isShuttingDown = true
        repository.shutdown()
    }

    public func modelMetadata(name: String, version: String?) throws -> ModelMetadata {
        try repository.model(named: name, version: version).metadata
    }

    public func isModelReady(name: String, version: String?) throws -> Bool {
        _ = try repository.model(named: name, version: version)
        return isReady
    }

    /// Runs one inference request, counting and logging it.
    ///
    /// - Parameter protocolName: `rest` or `grpc`, for metrics and logs.
    public func infer(model name: String, version: String?, request: InferenceRequest, protocolName: String) async throws -> InferenceResponse {
        let start = ContinuousClock.now
        do {
            let model = try repository.model(named: name, version: version)
            let response = try await metrics.inFlight(model: name) { try await model.infer(request) }
            metrics.countRequest(model: name, protocol: protocolName, outcome: .success)
            logger.debug("infer", metadata: ["model": "\(name)", "protocol": "\(protocolName)", "id": "\(request.id ?? "")",
                                             "time": "\(ContinuousClock.now - start)"])
            return response
        } catch {
            throw recordFailure(model: name, protocolName: protocolName, id: request.id, error)
        }
    }

    /// Counts and logs a failed inference request, also one that failed before
    /// it could be decoded (too large, malformed), and returns its protocol error.
    public func recordFailure(model name: String, protocolName: String, id: String? = nil, _ error: any Error) -> InferenceError {
        let failure = InferenceServer.protocolError(error)
        // Unknown names are counted together: a client must not be able to create metric series.
        let label = repository.models.contains { $0.name == name } ? name : "unknown"
        metrics.countRequest(model: label, protocol: protocolName, outcome: .failure)
        logger.info("infer failed", metadata: ["model": "\(name)", "protocol": "\(protocolName)", "id": "\(id ?? "")",
                                               "status": "\(failure.httpStatus)", "error": "\(failure.message)"])
        return failure
    }

    /// Any error as the protocol error a client should see.
    static func protocolError(_ error: any Error) -> InferenceError {
        if let error = error as? InferenceError { return error }
        if let error = error as? FoveaErrorDescribing { return error.inferenceError }
        if let error = error as? DynamicBatcherError {
            switch error {
            case .shutDown: return InferenceError(.unavailable, error.description)
            case .timedOut: return InferenceError(.timeout, error.description)
            case .wrongResultCount: return InferenceError(.internalError, error.description)
            }
        }
        return InferenceError(.internalError, String(describing: error))
    }
}

/// The shutdown flag, shared by the front ends.
private final class ServerState: @unchecked Sendable {
    // @unchecked: `shuttingDown` is only touched while holding `lock`.
    private let lock = NSLock()
    private var shuttingDown = false

    var isShuttingDown: Bool {
        get { lock.withLock { shuttingDown } }
        set { lock.withLock { shuttingDown = newValue } }
    }
}
