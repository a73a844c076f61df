import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

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
                    let metadata = try server.modelMetadata(name: try name(context), version: context.parameters.get("version"))
                    return try body(RESTResponseEncoder.metadata(metadata))
                }
            }
            router.get(RouterPath(prefix + "/ready")) { _, context in
                try await answer {
                    let ready = try server.isModelReady(name: try name(context), version: context.parameters.get("version"))
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

    private static func infer(_ request: Request, context: BasicRequestContext, server: InferenceServer) async throws -> Response {
        let decoded: InferenceRequest
        do {
            decoded = try await decode(request, limit: server.limits.maxRequestBytes)
        } catch {
            throw server.recordFailure(model: try name(context), protocolName: "rest", error)
        }
        let response = try await server.infer(model: try name(context), version: context.parameters.get("version"),
                                              request: decoded, protocolName: "rest")
        let (data, jsonLength) = try RESTResponseEncoder.encode(response)
        var result = body(data, contentType: jsonLength == nil ? "application/json" : "application/octet-stream")
        if let jsonLength { result.headers[headerLengthField] = String(jsonLength) }
        return result
    }

    /// The request body, within the size limit, as a protocol request.
    private static func decode(_ request: Request, limit: Int) async throws -> InferenceRequest {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw InferenceError(.tooLarge, "the request body has \(length) bytes; the limit is \(limit)")
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw InferenceError(.tooLarge, "the request body exceeds the limit of \(limit) bytes")
        }
        var headerLength: Int?
        if let value = request.headers[headerLengthField] {
            guard let length = Int(value) else { throw InferenceError.invalid("Inference-Header-Content-Length '\(value)' is not a number") }
            headerLength = length
        }
        return try RESTRequestDecoder.decode(Data(buffer.readableBytesView), headerLength: headerLength)
    }

    private static func name(_ context: BasicRequestContext) throws -> String {
        try context.parameters.require("name")
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
