import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import FoveaServerProtocol

/// The Open Inference Protocol's REST endpoints, `/metrics` and the page, on
/// a Hummingbird router. Every protocol error is answered as `{"error": "..."}`
/// with its status code.
public enum RESTRoutes {
    /// `Inference-Header-Content-Length`: the JSON part's length in a body with binary data.
    public static let headerLengthField = HTTPField.Name("Inference-Header-Content-Length")!

    /// A router serving `server`.
    public static func router(for server: InferenceServer) -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/v2/health/live") { _, _ in
            try json(["live": server.isLive], status: server.isLive ? .ok : .serviceUnavailable)
        }
        router.get("/v2/health/ready") { _, _ in
            try json(["ready": server.isReady], status: server.isReady ? .ok : .serviceUnavailable)
        }
        router.get("/v2") { _, _ in
            try json(ServerMetadataJSON(name: InferenceServer.name, version: InferenceServer.version, extensions: InferenceServer.extensions))
        }
        for prefix in ["/v2/models/:name", "/v2/models/:name/versions/:version"] {
            router.get(RouterPath(prefix)) { _, context in
                try await answer {
                    let metadata = try server.modelMetadata(name: try name(context), version: try version(context))
                    return try body(RESTResponseEncoder.metadata(metadata))
                }
            }
            router.get(RouterPath(prefix + "/ready")) { _, context in
                try await answer {
                    let ready = try server.isModelReady(name: try name(context), version: try version(context))
                    return try json(ModelReadyJSON(name: try name(context), ready: ready), status: ready ? .ok : .serviceUnavailable)
                }
            }
            router.post(RouterPath(prefix + "/infer")) { request, context in
                try await answer { try await infer(request, context: context, server: server) }
            }
        }
        router.get("/metrics") { _, _ in
            body(Data(server.metrics.exposition().utf8), contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
        router.get("/") { _, _ in
            body(Data(WebPage.html.utf8), contentType: "text/html; charset=utf-8")
        }
        router.get("/v2/models") { _, _ in
            // Not in the protocol's core: the page's list of models.
            try json(["models": server.repository.models.map(\.name)])
        }
        return router
    }

    /// One inference request: admitted unless draining, its memory reserved from
    /// its declared lengths before its body is read, its JSON parsed on the
    /// worker threads, its time counted from its arrival.
    private static func infer(_ request: Request, context: BasicRequestContext, server: InferenceServer) async throws -> Response {
        let arrival = ContinuousClock.now
        let model = try name(context)
        var id: String?  // known once the body is parsed: logged with a failure after that
        let response: InferenceResponse
        do {
            let lengths = try RESTRequestDecoder.DeclaredLengths(contentLength: request.headers[.contentLength],
                                                                 headerLength: request.headers[headerLengthField], limits: server.limits)
            response = try await server.admitted {
                try await server.memory.holding(InflightMemory.estimate(jsonBytes: lengths.json, binaryBytes: lengths.binary)) {
                    var decoded = try await decode(request, lengths: lengths, server: server)
                    id = decoded.id
                    decoded.deadline = server.deadline(from: arrival)
                    return try await server.run(model: model, version: try version(context), request: decoded, protocolName: "rest")
                }
            }
        } catch {
            throw server.recordFailure(model: model, protocolName: "rest", id: id, error)
        }
        let (data, jsonLength) = try RESTResponseEncoder.encode(response)
        var result = body(data, contentType: jsonLength == nil ? "application/json" : "application/octet-stream")
        if let jsonLength { result.headers[headerLengthField] = String(jsonLength) }
        return result
    }

    /// The request body, within the size limit, as a protocol request (parsed on the worker threads).
    private static func decode(_ request: Request, lengths: RESTRequestDecoder.DeclaredLengths, server: InferenceServer) async throws -> InferenceRequest {
        let limit = server.limits.maxRequestBytes
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw InferenceError(.tooLarge, "the request body exceeds the limit of \(limit) bytes")
        } catch {
            // The body could not be read to its end: the connection went away (or broke) mid-body.
            throw InferenceError(.clientDisconnected, "the client closed the connection before sending its whole body (\(error))")
        }
        if let expected = lengths.contentLength, buffer.readableBytes != expected {
            throw InferenceError(.clientDisconnected, "the client sent \(buffer.readableBytes) of the \(expected) bytes it announced")
        }
        let body = Data(buffer.readableBytesView)
        let maxJSON = server.limits.maxJSONBytes
        return try await server.workers.run {
            try RESTRequestDecoder.decode(body, headerLength: lengths.headerLength, maxJSONBytes: maxJSON)
        }
    }

    /// The model name in the path, percent-decoded (`my%20model` is `my model`).
    static func name(_ context: BasicRequestContext) throws -> String {
        try percentDecoded(try context.parameters.require("name"), what: "model name")
    }

    static func version(_ context: BasicRequestContext) throws -> String? {
        try context.parameters.get("version").map { try percentDecoded($0, what: "model version") }
    }

    /// A path segment with its `%XX` escapes decoded; a malformed escape is a 400.
    static func percentDecoded(_ segment: String, what: String) throws -> String {
        guard segment.contains("%") else { return segment }
        guard let decoded = segment.removingPercentEncoding else {
            throw InferenceError.invalid("the \(what) '\(segment)' has a malformed %-escape")
        }
        return decoded
    }

    /// Runs `handler`, answering any error as the protocol's error body.
    private static func answer(_ handler: () async throws -> Response) async throws -> Response {
        do {
            return try await handler()
        } catch {
            let failure = InferenceServer.protocolError(error)
            return body(RESTResponseEncoder.error(failure.message), status: .init(code: failure.httpStatus))
        }
    }

    private static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        body(try RESTResponseEncoder.json(value), status: status)
    }

    private static func body(_ data: Data, status: HTTPResponse.Status = .ok, contentType: String = "application/json") -> Response {
        Response(status: status, headers: [.contentType: contentType], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    private struct ServerMetadataJSON: Encodable {
        var name: String
        var version: String
        var extensions: [String]
    }

    private struct ModelReadyJSON: Encodable {
        var name: String
        var ready: Bool
    }
}
