import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import Hummingbird
import Logging
import ServiceLifecycle

/// The whole server: the models, the REST app (protocol, metrics, page) and
/// the gRPC server, run as one service group that shuts down gracefully on
/// SIGTERM or SIGINT: both front ends stop taking connections and finish their
/// in-flight requests, then the batchers run what is queued and stop.
public struct ServeApplication: Sendable {
    public let server: InferenceServer
    public let options: ServerOptions

    /// Loads every model (errors name the model and file).
    public init(options: ServerOptions, logger: Logger) throws {
        let metrics = ServerMetrics()
        let models = try ServedModel.load(options, metrics: metrics, logger: logger)
        server = InferenceServer(repository: try ModelRepository(models), metrics: metrics, limits: options.limits, logger: logger)
        self.options = options
    }

    /// Serves until a signal (or an error) ends it.
    public func run() async throws {
        let logger = server.logger
        let http = Application(
            router: RESTRoutes.router(for: server),
            configuration: .init(address: .hostname(options.host, port: options.httpPort), serverName: "fovea-serve"),
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
        let group = ServiceGroup(configuration: .init(services: services.map { .init(service: $0) },
                                                      gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
        logger.info("stopped")
    }
}

/// Last to shut down: once both front ends have finished their requests,
/// marks the server not ready and lets the batchers run what is queued.
private struct BatcherDrain: Service {
    let server: InferenceServer

    func run() async throws {
        try? await gracefulShutdown()
        server.shutdown()
    }
}
