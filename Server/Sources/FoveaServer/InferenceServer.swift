import Foundation
import FoveaBatching
import Logging
import FoveaServerProtocol

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
    /// A queued request's time limit, also the wall-time budget of its decoding; `nil`: none.
    public let requestTimeout: Duration?
    /// Threads for parsing tensors and decoding photos.
    public let workers: RequestWorkers
    /// The memory budget of requests in flight.
    public let memory: InflightMemory
    /// Rate-limited lines for events a client can cause in bulk.
    public let events: EventLog
    let logger: Logger
    private let state = ServerState()

    public init(repository: ModelRepository, metrics: ServerMetrics, limits: ServerLimits = ServerLimits(), requestTimeout: Duration? = nil,
                workers: RequestWorkers = .shared, logger: Logger) {
        self.repository = repository
        self.metrics = metrics
        self.limits = limits
        self.requestTimeout = requestTimeout
        self.workers = workers
        self.memory = InflightMemory(limit: limits.maxInflightBytes)
        self.events = EventLog(logger: logger)
        self.logger = logger
    }

    /// Live while the process runs.
    public var isLive: Bool { true }

    /// Ready until shutdown begins (every model is loaded before the server starts).
    public var isReady: Bool { !state.isDraining }

    /// The inference requests being worked on now (both front ends).
    public var inFlight: Int { state.inFlight }

    /// The first step of shutdown: readiness turns false on both protocols and
    /// new inference requests are refused (503, UNAVAILABLE), while the ones
    /// already admitted go on.
    public func beginDraining() {
        state.isDraining = true
    }

    /// Waits until no admitted request is left, or `timeout` has passed;
    /// returns how many were still running.
    public func drain(timeout: Duration) async -> Int {
        let deadline = ContinuousClock.now + timeout
        while state.inFlight > 0, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        return state.inFlight
    }

    /// Marks the server not ready (health checks fail, so load balancers drain it)
    /// and stops the batchers once their queued requests have run.
    public func shutdown() {
        state.isDraining = true
        repository.shutdown()
    }

    /// Runs one inference request's whole life (reading, decoding, inference) as
    /// admitted work, which shutdown waits for; refused once draining began.
    public func admitted<T>(_ body: () async throws -> T) async throws -> T {
        guard state.enter() else {
            throw InferenceError(.unavailable, "the server is shutting down and takes no new requests")
        }
        defer { state.leave() }
        return try await body()
    }

    /// When a request arriving now runs out of time.
    public func deadline(from arrival: ContinuousClock.Instant = .now) -> ContinuousClock.Instant? {
        requestTimeout.map { arrival + $0 }
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
        try await recording(model: name, protocolName: protocolName, id: request.id) {
            try await run(model: name, version: version, request: request, protocolName: protocolName)
        }
    }

    /// Runs `body`, a request's whole handling, and counts and logs its failure if it fails.
    public func recording<T>(model name: String, protocolName: String, id: String? = nil, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw recordFailure(model: name, protocolName: protocolName, id: id, error)
        }
    }

    /// Runs one decoded request (not counted as a failure here: the caller's ``recording(model:protocolName:id:_:)`` does).
    public func run(model name: String, version: String?, request: InferenceRequest, protocolName: String) async throws -> InferenceResponse {
        let start = ContinuousClock.now
        let model = try repository.model(named: name, version: version)
        let response = try await metrics.inFlight(model: name) { try await model.infer(request) }
        metrics.countRequest(model: name, protocol: protocolName, outcome: .success)
        logger.debug("infer", metadata: ["model": "\(name)", "protocol": "\(protocolName)", "id": "\(request.id ?? "")",
                                         "time": "\(ContinuousClock.now - start)"])
        return response
    }

    /// Counts and logs a failed inference request, also one that failed before
    /// it could be decoded (too large, malformed), and returns its protocol error.
    public func recordFailure(model name: String, protocolName: String, id: String? = nil, _ error: any Error) -> InferenceError {
        let failure = InferenceServer.protocolError(error)
        // Unknown names are counted together: a client must not be able to create metric series.
        let label = repository.models.contains { $0.name == name } ? name : "unknown"
        metrics.countRequest(model: label, protocol: protocolName, outcome: failure.kind == .clientDisconnected ? .disconnected : .failure)
        // One line per kind of failure and second at most: a client can cause any number of them.
        events.record("infer failed: \(failure.kind.rawValue)", level: failure.kind == .internalError ? .error : .info,
                      ["model": "\(name)", "protocol": "\(protocolName)", "id": "\(id ?? "")",
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

/// The draining flag and the count of admitted requests, shared by the front ends.
private final class ServerState: @unchecked Sendable {
    // @unchecked: `draining` and `running` are only touched while holding `lock`.
    private let lock = NSLock()
    private var draining = false
    private var running = 0

    var isDraining: Bool {
        get { lock.withLock { draining } }
        set { lock.withLock { draining = newValue } }
    }

    var inFlight: Int { lock.withLock { running } }

    /// Admits one request unless draining began.
    func enter() -> Bool {
        lock.withLock {
            guard !draining else { return false }
            running += 1
            return true
        }
    }

    func leave() {
        lock.withLock { running -= 1 }
    }
}
