import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import FoveaServerProtocol

/// One HTTP connection's timers, fed by two handlers: ``ByteHandler`` first in
/// the pipeline (raw bytes: when a request starts arriving; and the close
/// that ends a connection) and ``PartHandler`` after the HTTP decoder (when a
/// request's head and end arrived, when its response ended, parse errors).
///
/// - Headers: from a request's first byte (or the connection's opening) its
///   head must arrive within the read timeout (slowloris).
/// - Body: from its head, the rest of the request must arrive within the read
///   timeout (a Content-Length larger than what is sent).
/// - Idle: between requests, a kept-alive connection may wait the idle timeout.
///
/// Everything runs on the connection's event loop.
final class ConnectionWatch: @unchecked Sendable {
    // @unchecked: created for one connection and only touched on its event loop
    // (by its two handlers and the timers they schedule there).
    enum Phase {
        case idle, head, body, answering
    }

    private let channel: any Channel
    private let limits: ServerLimits
    private let events: EventLog
    private let metrics: ServerMetrics
    private var phase = Phase.head
    private var responseEnded = false
    private var timer: Scheduled<Void>?

    init(channel: any Channel, limits: ServerLimits, events: EventLog, metrics: ServerMetrics) {
        self.channel = channel
        self.limits = limits
        self.events = events
        self.metrics = metrics
    }

    func opened() { enter(.head) }

    func bytesArrived() {
        if phase == .idle { enter(.head) }
    }

    func headArrived() {
        responseEnded = false
        enter(.body)
    }

    func requestEnded() {
        enter(responseEnded ? .idle : .answering)
    }

    /// A response ended: the connection waits for the next request, unless the
    /// request is still arriving (an early error answer), whose timer goes on.
    func responseFinished() {
        responseEnded = true
        if phase == .answering { enter(.idle) }
    }

    func parseError(_ error: any Error) {
        metrics.countRejection(reason: "parse_error")
        events.record("http parse error", ["error": "\(error)", "peer": "\(channel.remoteAddress?.description ?? "?")"])
    }

    func closed() {
        timer?.cancel()
        timer = nil
    }

    private func enter(_ next: Phase) {
        phase = next
        timer?.cancel()
        timer = nil
        let timeout: Duration
        switch next {
        case .answering: return
        case .idle: timeout = limits.idleTimeout
        case .head, .body: timeout = limits.readTimeout
        }
        let phase = next
        timer = channel.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(Self.nanoseconds(timeout))) { [self] in
            expired(phase)
        }
    }

    private func expired(_ phase: Phase) {
        timer = nil
        switch phase {
        case .idle:
            break  // a normal end for a kept-alive connection: not worth a line
        case .head, .body:
            let reason = phase == .head ? "header_timeout" : "body_timeout"
            metrics.countRejection(reason: reason)
            events.record("http read timeout: closing", ["reason": "\(reason)", "timeout": "\(limits.readTimeout)",
                                                          "peer": "\(channel.remoteAddress?.description ?? "?")"])
        case .answering:
            return
        }
        channel.close(promise: nil)
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (total, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : total &+ attoseconds / 1_000_000_000
    }

    /// First in the pipeline: sees raw bytes and the close that Hummingbird asks for.
    final class ByteHandler: ChannelDuplexHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer
        typealias OutboundIn = IOData
        typealias OutboundOut = IOData

        let watch: ConnectionWatch

        init(watch: ConnectionWatch) { self.watch = watch }

        func handlerAdded(context: ChannelHandlerContext) {
            if context.channel.isActive { watch.opened() }
        }

        func channelActive(context: ChannelHandlerContext) {
            watch.opened()
            context.fireChannelActive()
        }

        func channelInactive(context: ChannelHandlerContext) {
            watch.closed()
            context.fireChannelInactive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            watch.bytesArrived()
            context.fireChannelRead(data)
        }

        /// Hummingbird ends a connection by closing its output only and then waits
        /// for the client's close, but it has stopped reading, so after a parse
        /// error that close is never seen and the connection stays open forever.
        /// Once the server has nothing more to say, the whole connection closes.
        func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
            context.close(mode: mode == .output ? .all : mode, promise: promise)
        }
    }

    /// After the HTTP decoder: sees request heads and ends, response ends, parse errors.
    final class PartHandler: ChannelDuplexHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPRequestPart
        typealias InboundOut = HTTPRequestPart
        typealias OutboundIn = HTTPResponsePart
        typealias OutboundOut = HTTPResponsePart

        let watch: ConnectionWatch

        init(watch: ConnectionWatch) { self.watch = watch }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head: watch.headArrived()
            case .end: watch.requestEnded()
            case .body: break
            }
            context.fireChannelRead(data)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            if error is HTTPParserError { watch.parseError(error) }
            context.fireErrorCaught(error)
        }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            if case .end = unwrapOutboundIn(data) { watch.responseFinished() }
            context.write(data, promise: promise)
        }
    }
}
