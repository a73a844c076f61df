import Fovea
import FoveaBatching
import Foundation
import Logging
import FoveaServerProtocol

/// Everything `fovea-serve` is told on its command line.
public struct ServerOptions: Sendable {
    public var models: [ModelSource] = []
    /// Class labels by model name: a labels file, or `imagenet`.
    public var labels: [String: String] = [:]
    /// The precision of a model by name, over ``modelConfiguration``'s (`--precision NAME=bf16`).
    public var precisions: [String: Precision] = [:]
    public var host = "127.0.0.1"
    /// 0 picks a free port (logged at start).
    public var httpPort = 8080
    /// `nil`: no gRPC server.
    public var grpcPort: Int? = 8081
    public var batching = DynamicBatcher<[String: Tensor], [String: Tensor]>.Configuration()
    public var limits = ServerLimits()
    /// Threads that parse tensors and decode photos (never the cooperative ones).
    public var workerThreads = ProcessInfo.processInfo.activeProcessorCount
    public var modelConfiguration = ModelConfiguration()
    public var logFormat = LineLogHandler.Format.keyValue
    public var logLevel = Logger.Level.info

    public init() {}
}
