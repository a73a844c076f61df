import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import Hummingbird
import Logging
import ServiceLifecycle

/// The whole server: the models, the REST app (protocol, metrics, page) and
/// the gRPC server, run as one service group that shuts down on SIGTERM or
/// SIGINT the way Kubernetes expects (services stop in reverse order, each
/// after the one before has finished):
///
/// 1. ``ShutdownGate``: readiness turns false on both protocols and new
///    inference requests are refused (503, UNAVAILABLE); the admitted ones
///    drain, for at most `drainTimeout`;
/// 2. the HTTP port closes, then the gRPC port;
/// 3. the batchers run what is still queued and stop.
public struct ServeApplication: Sendable {
    public let server: InferenceServer
    public let options: ServerOptions

    /// Loads every model (errors name the model and file).
    public init(options: ServerOptions, logger: Logger) throws {
        let metrics = ServerMetrics()
        let workers = RequestWorkers(threads: options.workerThreads)
        let models = try ServedModel.load(options, metrics: metrics, workers: workers, logger: logger)
        server = InferenceServer(repository: try ModelRepository(models), metrics: metrics, limits: options.limits,
                                 requestTimeout: options.batching.timeout, workers: workers, logger: logger)
        self.options = options
    }

    /// Serves until a signal (or an error) ends it.
    public func run() async throws {
        let logger = server.logger
        let limits = options.limits
        let http = Application(
            router: RESTRoutes.router(for: server),
            server: GuardedHTTP1Channel.builder(limits: limits, server: server),
            configuration: .init(address: .hostname(options.host, port: options.httpPort), serverName: "fovea-serve",
                                 availableConnectionsDelegate: ConnectionLimit(maxConnections: limits.maxConnections,
                                                                               events: server.events, metrics: server.metrics)),
            onServerRunning: { [logger] channel in
                logger.info("http listening", metadata: ["address": "\(channel.localAddress?.description ?? "?")",
                                                          "port": "\(channel.localAddress?.port ?? -1)"])
            },
            logger: logger)
        var services: [any Service] = [BatcherDrain(server: server)]
        if let grpcPort = options.grpcPort {
            services.append(GRPCFrontEnd(server: server, host: options.host, port: grpcPort))
        }
        services.append(http)
        services.append(ShutdownGate(server: server, drainTimeout: limits.drainTimeout))
        var configuration = ServiceGroupConfiguration(services: services.map { .init(service: $0) },
                                                      gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        // The drain, then a few seconds for the front ends and batchers; past that the group cancels them.
        configuration.maximumGracefulShutdownDuration = limits.drainTimeout + .seconds(5)
        try await ServiceGroup(configuration: configuration).run()
        logger.info("stopped")
    }
}

/// Last in the group, so first to shut down: turns readiness false and refuses
/// new work at once, then waits for the admitted requests (at most the drain
/// timeout) before the front ends close their ports.
private struct ShutdownGate: Service {
    let server: InferenceServer
    let drainTimeout: Duration

    func run() async throws {
        try? await gracefulShutdown()
        server.beginDraining()
        let start = ContinuousClock.now
        server.logger.info("shutdown: not ready, refusing new requests, draining", metadata: ["in_flight": "\(server.inFlight)",
                                                                                             "drain_timeout": "\(drainTimeout)"])
        let left = await server.drain(timeout: drainTimeout)
        server.logger.log(level: left == 0 ? .info : .warning, "shutdown: drained; closing the ports",
                          metadata: ["left": "\(left)", "time": "\(ContinuousClock.now - start)"])
    }
}

/// First in the group, so last to shut down: once both front ends have
/// finished, lets the batchers run what is queued and stop.
private struct BatcherDrain: Service {
    let server: InferenceServer

    func run() async throws {
        try? await gracefulShutdown()
        server.shutdown()
    }
}
