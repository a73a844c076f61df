import ArgumentParser
import Fovea
import FoveaBatching
import FoveaServer
import Foundation
import Logging

/// `fovea-serve`: serves Fovea models over the Open Inference Protocol.
@main
struct FoveaServe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fovea-serve",
        abstract: "Serve models over the Open Inference Protocol (KServe v2) on HTTP and gRPC, with a web page at /.",
        discussion: """
        REST: GET /v2/health/live, /v2/health/ready, /v2, /v2/models/NAME[/versions/V][/ready]; \
        POST /v2/models/NAME[/versions/V]/infer (binary data and classification extensions). \
        gRPC: inference.GRPCInferenceService on --grpc-port. GET /metrics: Prometheus text. \
        An image classifier also takes photos (JPEG, PNG) as a BYTES input named "image". \
        SIGTERM or SIGINT: readiness false and new requests refused at once, in-flight ones \
        drain (--drain-timeout-ms), then the ports close and the process exits.
        """)

    @Option(name: .customLong("model"), help: "A model to serve, as NAME=PATH (.onnx or .mlmodel); repeatable. A bare PATH is named after its file.")
    var models: [String] = []

    @Option(help: "A directory of models laid out as KServe mounts one at /mnt/models: model files, or a folder per model (NAME/model.onnx or NAME/1/model.onnx).")
    var modelDir: String?

    @Option(help: "With --model-dir holding one model: serve it under this name (KServe passes the InferenceService's name).")
    var modelName: String?

    @Option(name: .customLong("labels"), help: "Class labels for a model, as NAME=FILE or NAME=imagenet; repeatable. Default: the model's own; ImageNet's for a 1000-class model without labels.")
    var labels: [String] = []

    @Option(help: "The address to listen on (an IPv4 address; 0.0.0.0 in a container).")
    var host = "127.0.0.1"

    @Option(help: "The REST port (KServe's default is 8080); 0 picks a free one.")
    var httpPort = 8080

    @Option(help: "The gRPC port (KServe's default is 8081); 0 picks a free one.")
    var grpcPort = 8081

    @Flag(help: "Serve REST only.")
    var noGrpc = false

    @Option(help: "Dynamic batching: the most requests run as one batch; 1 turns batching off.")
    var maxBatchSize = 8

    @Option(help: "Dynamic batching: how long the oldest queued request waits for others, in microseconds.")
    var maxQueueDelayUs = 2000

    @Option(help: "A request still queued after this many milliseconds fails (HTTP 504, gRPC DEADLINE_EXCEEDED); 0: no limit.")
    var timeoutMs = 30_000

    @Option(help: "The largest request body or gRPC message accepted, in bytes (HTTP 413, gRPC RESOURCE_EXHAUSTED).")
    var maxRequestBytes = 64 << 20

    @Option(help: "The largest JSON part of a REST request, in bytes (HTTP 413); larger tensors go as binary data.")
    var maxJsonBytes = 8 << 20

    @Option(help: "The most pixels a photo may have once decoded.")
    var maxImagePixels = 50_000_000

    @Option(help: "The most pixels all the photos of one request may have together (HTTP 413, gRPC RESOURCE_EXHAUSTED).")
    var maxRequestPixels = 100_000_000

    @Option(help: "The memory requests in flight may hold together, in bytes, estimated before their bodies are read (HTTP 503, gRPC RESOURCE_EXHAUSTED).")
    var maxInflightBytes = 1 << 30

    @Option(help: "The most open HTTP connections; more wait in the listen backlog.")
    var maxConnections = 512

    @Option(help: "How long a request's headers, and then its body, may take to arrive, in milliseconds; the connection is closed after.")
    var readTimeoutMs = 30_000

    @Option(help: "How long a kept-alive HTTP connection may sit idle between requests, in milliseconds.")
    var idleTimeoutMs = 60_000

    @Option(help: "On SIGTERM: how long in-flight requests have to finish before the ports close, in milliseconds.")
    var drainTimeoutMs = 20_000

    @Option(help: "Threads that parse tensors and decode photos (default: one per core).")
    var workerThreads: Int?

    @Option(help: "Threads per inference run (default: the model's default).")
    var threads: Int?

    @Option(help: "Backends in order of preference, comma-separated (kernels, simd, blas, reference).")
    var backends: String?

    @Option(name: .customLong("precision"), help: ArgumentHelp("f32 (default) or bf16 for every model, or NAME=f32|bf16 for one; repeatable. bf16: bf16 multiplies with f32 accumulation in the kernels backend's GEMM convolutions.", valueName: "[NAME=]f32|bf16"))
    var precisions: [String] = []

    @Option(help: "Log lines as key-value or json.")
    var logFormat: String = LineLogHandler.Format.keyValue.rawValue

    @Option(help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    func validate() throws {
        guard !models.isEmpty || modelDir != nil else { throw ValidationError("give --model NAME=PATH or --model-dir DIR") }
        guard maxBatchSize >= 1 else { throw ValidationError("--max-batch-size must be at least 1") }
        guard maxQueueDelayUs >= 0, timeoutMs >= 0 else { throw ValidationError("delays and timeouts cannot be negative") }
        guard maxRequestBytes > 0, maxImagePixels > 0, maxJsonBytes > 0, maxRequestPixels > 0, maxInflightBytes > 0, maxConnections > 0 else {
            throw ValidationError("limits must be positive")
        }
        guard readTimeoutMs > 0, idleTimeoutMs > 0, drainTimeoutMs >= 0 else { throw ValidationError("read and idle timeouts must be positive") }
        if let workerThreads, workerThreads < 1 { throw ValidationError("--worker-threads must be at least 1") }
        guard LineLogHandler.Format(rawValue: logFormat) != nil else { throw ValidationError("--log-format is key-value or json") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown --log-level '\(logLevel)'") }
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
        _ = try Self.parsePrecisions(precisions)
    }

    /// `bf16` → every model's; `NAME=bf16` → one model's.
    static func parsePrecisions(_ entries: [String]) throws -> (all: Precision?, byModel: [String: Precision]) {
        var all: Precision?
        var byModel: [String: Precision] = [:]
        for entry in entries {
            let parts = entry.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard let precision = Precision(name: parts.last ?? ""), parts.count == 1 || !parts[0].isEmpty else {
                throw ValidationError("--precision takes f32, bf16, NAME=f32 or NAME=bf16, got '\(entry)'")
            }
            if parts.count == 1 { all = precision } else { byModel[parts[0]] = precision }
        }
        return (all, byModel)
    }

    func run() async throws {
        let format = LineLogHandler.Format(rawValue: logFormat) ?? .keyValue
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { LineLogHandler(label: $0, format: format, level: level) }
        let logger = Logger(label: "fovea-serve")

        var options = ServerOptions()
        do {
            options.models = try models.map(ModelSource.init(argument:))
            if let modelDir { options.models += try ModelSource.scan(directory: modelDir, name: modelName) }
            for entry in labels {
                guard let equals = entry.firstIndex(of: "=") else { throw ValidationError("--labels takes NAME=FILE or NAME=imagenet, got '\(entry)'") }
                options.labels[String(entry[..<equals])] = String(entry[entry.index(after: equals)...])
            }
        } catch let error as InferenceError {
            throw ValidationError(error.message)
        }
        options.host = host
        options.httpPort = httpPort
        options.grpcPort = noGrpc ? nil : grpcPort
        options.batching = .init(maxBatchSize: maxBatchSize, maxQueueDelay: .microseconds(maxQueueDelayUs),
                                 timeout: timeoutMs == 0 ? nil : .milliseconds(timeoutMs))
        options.limits = ServerLimits(maxRequestBytes: maxRequestBytes, maxJSONBytes: maxJsonBytes,
                                      maxImagePixels: maxImagePixels, maxRequestPixels: maxRequestPixels,
                                      maxInflightBytes: maxInflightBytes, maxConnections: maxConnections,
                                      readTimeout: .milliseconds(readTimeoutMs), idleTimeout: .milliseconds(idleTimeoutMs),
                                      drainTimeout: .milliseconds(drainTimeoutMs))
        if let workerThreads { options.workerThreads = workerThreads }
        let precision = try Self.parsePrecisions(precisions)
        options.modelConfiguration = ModelConfiguration(backends: backends?.split(separator: ",").map(String.init), threads: threads,
                                                        precision: precision.all ?? .f32)
        options.precisions = precision.byModel
        options.logFormat = format
        options.logLevel = level

        let start = ContinuousClock.now
        let application = try ServeApplication(options: options, logger: logger)
        let loadTime = ContinuousClock.now - start
        logger.info("models ready", metadata: ["models": "\(application.server.repository.models.map(\.name).joined(separator: ","))",
                                               "load_time": "\(loadTime)"])
        try await application.run()
    }
}

