import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypes
import FoveaServerProtocol

/// Hummingbird's HTTP/1 child channel with Fovea's connection hygiene around
/// it (``ConnectionWatch``): read timeouts for headers and bodies, an idle
/// keep-alive timeout, parse errors counted and logged, and a connection whose
/// response side Hummingbird has finished is closed, not left half-closed
/// (docs/upstream/hummingbird-parse-error-half-close.md).
struct GuardedHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: HTTPChannelHandler.Responder
    let limits: ServerLimits
    let server: InferenceServer

    /// The builder to give `Application(server:)`.
    static func builder(limits: ServerLimits, server: InferenceServer) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in GuardedHTTP1Channel(responder: responder, limits: limits, server: server) }
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let watch = ConnectionWatch(channel: channel, limits: limits, events: server.events, metrics: server.metrics)
        // Made per connection so that its part handler shares this connection's watch.
        let http1 = HTTP1Channel(responder: responder,
                                 configuration: .init(additionalChannelHandlers: [ConnectionWatch.PartHandler(watch: watch)]))
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(ConnectionWatch.ByteHandler(watch: watch), position: .first)
        }.flatMap { _ in
            http1.setup(channel: channel, logger: logger)
        }
    }

    func handle(value: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: value, logger: logger)
    }
}
