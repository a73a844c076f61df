import Fovea
import Foundation
import FoveaServer
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOEmbedded
import XCTest

/// The REST routes in process, through the router's responder (no socket):
/// status codes and `{"error": ...}` bodies, size limits, metrics. The real
/// clients (tritonclient, kserve) drive a running server in Tests/Clients.
final class RESTRoutesTests: XCTestCase {
    /// Calls the router as the HTTP server would.
    struct Client {
        let responder: RouterResponder<BasicRequestContext>

        struct Answer {
            var status: HTTPResponse.Status
            var body: ByteBuffer
        }

        func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer = ByteBuffer(),
                     _ check: (Answer) throws -> Void) async throws {
            var head = HTTPRequest(method: method, scheme: "http", authority: "localhost", path: uri)
            head.headerFields = headers
            head.headerFields[.contentLength] = String(body.readableBytes)
            let request = Request(head: head, body: RequestBody(buffer: body))
            let context = BasicRequestContext(source: ApplicationRequestContextSource(channel: EmbeddedChannel(), logger: Logger(label: "test")))
            let response: Response
            do {
                response = try await responder.respond(to: request, context: context)
            } catch let error as HTTPResponseError {
                response = try error.response(from: request, context: context)
            }
            let collected = CollectedBody()
            let body = response.body
            try await body.write(CollectingWriter(collected: collected))
            try check(Answer(status: response.status, body: collected.buffer))
        }
    }

    /// A response body's bytes, written by ``CollectingWriter`` (the writer is consumed).
    final class CollectedBody: @unchecked Sendable {
        // @unchecked: written by one writer, read after it finished.
        var buffer = ByteBuffer()
    }

    /// Gathers a response body.
    struct CollectingWriter: ResponseBodyWriter {
        let collected: CollectedBody
        mutating func write(_ buffer: ByteBuffer) async throws { collected.buffer.writeImmutableBuffer(buffer) }
        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }

    func withServer(limits: ServerLimits = ServerLimits(), _ body: (InferenceServer, Client) async throws -> Void) async throws {
        try await Self.withServer(limits: limits, body)
    }

    /// A server of SqueezeNet and a client calling its router, for `body`.
    static func withServer(limits: ServerLimits = ServerLimits(), _ body: (InferenceServer, Client) async throws -> Void) async throws {
        let metrics = ServerMetrics()
        let model = try ServedModel(name: "squeezenet", model: try ServedModelTests.loaded.get(), batching: .init(maxBatchSize: 1), metrics: metrics)
        let server = InferenceServer(repository: try ModelRepository([model]), metrics: metrics, limits: limits, logger: Logger(label: "test"))
        defer { server.shutdown() }
        try await body(server, Client(responder: RESTRoutes.router(for: server).buildResponder()))
    }

    func error(_ response: Client.Answer) throws -> String? {
        try Self.error(response)
    }

    /// The `error` of an `{"error": ...}` body.
    static func error(_ response: Client.Answer) throws -> String? {
        try (JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: String])?["error"]
    }

    func testHealthServerMetadataAndTheModelList() async throws {
        try await withServer { _, client in
            try await client.execute(uri: "/v2/health/live", method: .get) { XCTAssertEqual($0.status, .ok) }
            try await client.execute(uri: "/v2/health/ready", method: .get) { XCTAssertEqual($0.status, .ok) }
            try await client.execute(uri: "/v2/models/squeezenet/versions/1/ready", method: .get) { XCTAssertEqual($0.status, .ok) }
            try await client.execute(uri: "/v2", method: .get) { response in
                let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                XCTAssertEqual(json["name"] as? String, "fovea")
                XCTAssertEqual(json["extensions"] as? [String], ["binary_tensor_data", "classification"])
            }
            try await client.execute(uri: "/v2/models", method: .get) { response in
                XCTAssertEqual(String(buffer: response.body), #"{"models":["squeezenet"]}"#)
            }
        }
    }

    func testUnknownModelsAndVersionsAre404WithAnErrorBody() async throws {
        try await withServer { _, client in
            for uri in ["/v2/models/nope", "/v2/models/nope/ready", "/v2/models/squeezenet/versions/9"] {
                try await client.execute(uri: uri, method: .get) { response in
                    XCTAssertEqual(response.status, .notFound, uri)
                    XCTAssertNotNil(try self.error(response), uri)
                }
            }
            try await client.execute(uri: "/v2/models/nope/infer", method: .post, body: ByteBuffer(string: #"{"inputs": [{"name": "data", "shape": [1], "datatype": "FP32", "data": [1]}]}"#)) { response in
                XCTAssertEqual(response.status, .notFound)
                XCTAssertEqual(try self.error(response), "no model named 'nope' (models: squeezenet)")
            }
        }
    }

    func testAnOversizedBodyIs413AndTheServerCarriesOn() async throws {
        try await withServer(limits: ServerLimits(maxRequestBytes: 1000)) { server, client in
            try await client.execute(uri: "/v2/models/squeezenet/infer", method: .post, body: ByteBuffer(repeating: 0x20, count: 5000)) { response in
                XCTAssertEqual(response.status, .contentTooLarge)
                XCTAssertEqual(try self.error(response), "the request body has 5000 bytes; the limit is 1000")
            }
            // Both the oversized and the malformed request count as failures.
            try await client.execute(uri: "/v2/models/squeezenet/infer", method: .post, body: ByteBuffer(string: "{}")) { response in
                XCTAssertEqual(response.status, .badRequest)
            }
            let metrics = server.metrics.exposition()
            XCTAssertTrue(metrics.contains(#"fovea_requests_total{model="squeezenet",protocol="rest",outcome="failure"} 2"#), metrics)
        }
    }

    func testAnInferenceAndItsMetrics() async throws {
        try await withServer { server, client in
            let header = Data(#"{"id": "x", "inputs": [{"name": "data", "shape": [1, 3, 224, 224], "datatype": "FP32", "parameters": {"binary_data_size": 602112}}], "outputs": [{"name": "logits", "parameters": {"classification": 1}}]}"#.utf8)
            let body = header + RawTensorData.encode(.fp32(Array(repeating: 0.5, count: 150_528)))
            try await client.execute(uri: "/v2/models/squeezenet/versions/1/infer", method: .post,
                                     headers: [RESTRoutes.headerLengthField: String(header.count)], body: ByteBuffer(bytes: body)) { response in
                XCTAssertEqual(response.status, .ok)
                let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                XCTAssertEqual(json["id"] as? String, "x")
                let output = try XCTUnwrap((json["outputs"] as? [[String: Any]])?.first)
                XCTAssertEqual(output["datatype"] as? String, "BYTES")
                XCTAssertEqual(output["shape"] as? [Int], [1, 1])
            }
            let metrics = server.metrics.exposition()
            XCTAssertTrue(metrics.contains(#"fovea_requests_total{model="squeezenet",protocol="rest",outcome="success"} 1"#), metrics)
            XCTAssertTrue(metrics.contains(#"fovea_batch_size_count{model="squeezenet"} 1"#), metrics)
            XCTAssertTrue(metrics.contains(#"fovea_inflight_requests{model="squeezenet"} 0"#), metrics)
        }
    }
}
