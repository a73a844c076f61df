import GRPCCore
import GRPCNIOTransportHTTP2
import Logging
import ServiceLifecycle

/// The gRPC server (`inference.GRPCInferenceService`) on its own port, as a
/// service: on graceful shutdown it stops taking RPCs and finishes the running ones.
struct GRPCFrontEnd: Service {
    let server: InferenceServer
    let host: String
    let port: Int

    func run() async throws {
        let transport = HTTP2ServerTransport.Posix(
            address: .ipv4(host: host, port: port),
            transportSecurity: .plaintext,
            // Twice the limit, so that a request over the limit by less than that gets a
            // clean RESOURCE_EXHAUSTED from the service; beyond it the transport resets the stream.
            config: .defaults { $0.rpc.maxRequestPayloadSize = server.limits.maxRequestBytes.multipliedReportingOverflow(by: 2).overflow ? .max : server.limits.maxRequestBytes * 2 })
        let grpc = GRPCServer(transport: transport, services: [GRPCInferenceService(server: server)])
        try await withGracefulShutdownHandler {
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { try await grpc.serve() }
                if let address = try await transport.listeningAddress.ipv4 {
                    server.logger.info("grpc listening", metadata: ["address": "\(address.host)", "port": "\(address.port)"])
                }
            }
        } onGracefulShutdown: {
            grpc.beginGracefulShutdown()
        }
    }
}
