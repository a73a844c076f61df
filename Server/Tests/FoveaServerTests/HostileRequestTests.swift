import Fovea
import GRPCCore
import Foundation
@testable import FoveaServer
import HTTPTypes
import Logging
import NIOCore
import XCTest

/// The hostile requests of issue 38 that need no socket, each answered with a
/// clean error instead of a trap, an abort or unbounded work. (The socket-level
/// ones, parse errors, slow clients, the connection limit and SIGTERM, are in
/// Tests/Clients/hostile_test.py.)
final class HostileRequestTests: XCTestCase {
    // MARK: 1. Sizes from the client, checked before arithmetic and allocation

    func testADeclaredShapeWhoseByteCountOverflowsIsAnError() {
        // 2^62 elements: the count fits in Int, × 4 bytes does not (trapped before).
        XCTAssertThrowsError(try RawTensorData.decode(Data(), datatype: .fp32, count: 1 << 62, name: "data")) { error in
            XCTAssertEqual((error as? InferenceError)?.kind, .invalidArgument)
        }
        XCTAssertThrowsError(try RawTensorData.decode(Data(), datatype: .int64, count: 1 << 61, name: "data"))
    }

    func testABytesCountBeyondTheDataReservesNothing() {
        // 10^11 elements in 0 bytes (reserved 1.6 TB and aborted before).
        XCTAssertThrowsError(try RawTensorData.decode(Data(), datatype: .bytes, count: 100_000_000_000, name: "image")) { error in
            XCTAssertEqual((error as? InferenceError)?.message,
                           "input 'image': 0 bytes of BYTES data cannot hold 100000000000 elements (each needs at least a 4-byte length)")
        }
    }

    func testTheIssuesRESTBodiesAreInvalidArguments() throws {
        for json in [#"{"inputs":[{"name":"data","datatype":"FP32","shape":[4611686018427387904],"parameters":{"binary_data_size":0}}]}"#,
                     #"{"inputs":[{"name":"image","datatype":"BYTES","shape":[100000000000],"parameters":{"binary_data_size":0}}]}"#,
                     #"{"inputs":[{"name":"data","datatype":"INT64","shape":[3037000500,3037000500],"parameters":{"binary_data_size":0}}]}"#] {
            let body = Data(json.utf8)
            XCTAssertThrowsError(try RESTRequestDecoder.decode(body, headerLength: body.count), json) { error in
                XCTAssertEqual((error as? InferenceError)?.kind, .invalidArgument, json)
            }
        }
    }

    func testTheIssuesGRPCMessagesAreInvalidArguments() throws {
        for (name, datatype, shape) in [("data", "FP32", [Int64(1) << 62]), ("image", "BYTES", [100_000_000_000])] {
            var message = Inference_ModelInferRequest()
            message.modelName = "squeezenet"
            message.inputs = [.with { $0.name = name; $0.datatype = datatype; $0.shape = shape }]
            message.rawInputContents = [Data()]
            XCTAssertThrowsError(try ModelInferRequestDecoder.decode(message, limit: 64 << 20), name) { error in
                XCTAssertEqual((error as? InferenceError)?.kind, .invalidArgument, name)
            }
        }
    }

    func testSizeArithmeticClampsInsteadOfWrapping() {
        XCTAssertEqual(TensorSize.sum(.max, 1), .max)
        XCTAssertEqual(TensorSize.product(1 << 40, 1 << 40), .max)
        XCTAssertThrowsError(try TensorSize.elementCount([1 << 32, 1 << 32], name: "x"))
        XCTAssertThrowsError(try TensorSize.elementCount([2, -1], name: "x"))
        XCTAssertEqual(try TensorSize.elementCount([2, 3, 0], name: "x"), 0)
    }

    // MARK: 3. Photos: a pixel budget per request, checked from the headers

    /// A PNG that is only a header: enough for the budget, which is checked before any decoding.
    private func pngHeader(width: UInt32, height: UInt32) -> Data {
        var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) + Data("IHDR".utf8)
        for value in [width, height] { withUnsafeBytes(of: value.bigEndian) { data.append(contentsOf: $0) } }
        return data + Data([1, 0, 0, 0, 0, 0, 0, 0, 0])
    }

    func testPhotoHeadersGiveTheirPixels() throws {
        XCTAssertEqual(PhotoHeader.pixels(pngHeader(width: 7071, height: 7071)), 49_999_041)
        XCTAssertEqual(PhotoHeader.pixels(Data("P6\n# c\n640 480\n255\n".utf8)), 307_200)
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: TestModels.redPanda))
        let image = try ImageRequestHandler(data: jpeg, source: "red_panda").image
        XCTAssertEqual(PhotoHeader.pixels(jpeg), image.width * image.height)
        XCTAssertNil(PhotoHeader.pixels(Data("not a photo".utf8)))
    }

    /// A WebP that is only its first chunk's header (`VP8X`, `VP8L` or `VP8 `).
    private func webPHeader(_ chunk: String, payload: [UInt8]) -> Data {
        var body = Data("WEBP".utf8) + Data(chunk.utf8)
        withUnsafeBytes(of: UInt32(payload.count).littleEndian) { body.append(contentsOf: $0) }
        body += Data(payload) + Data(repeating: 0, count: 16)
        var data = Data("RIFF".utf8)
        withUnsafeBytes(of: UInt32(body.count).littleEndian) { data.append(contentsOf: $0) }
        return data + body
    }

    /// An ISO base media box: 32-bit size, type, payload.
    private func isoBox(_ type: String, _ payload: Data) -> Data {
        var data = Data()
        withUnsafeBytes(of: UInt32(8 + payload.count).bigEndian) { data.append(contentsOf: $0) }
        return data + Data(type.utf8) + payload
    }

    /// A HEIC/AVIF header: ftyp, then meta → iprp → ipco holding one ispe per size.
    private func heifHeader(brand: String, sizes: [(UInt32, UInt32)]) -> Data {
        let ispes = sizes.reduce(Data()) { data, size in
            var payload = Data(count: 4)  // version and flags
            for value in [size.0, size.1] { withUnsafeBytes(of: value.bigEndian) { payload.append(contentsOf: $0) } }
            return data + isoBox("ispe", payload)
        }
        let meta = isoBox("meta", Data(count: 4) + isoBox("hdlr", Data(count: 24)) + isoBox("iprp", isoBox("ipco", ispes)))
        return isoBox("ftyp", Data(brand.utf8) + Data(count: 4) + Data("mif1".utf8)) + meta + isoBox("mdat", Data(count: 8))
    }

    func testWebPAndHEIFHeadersGiveTheirPixels() {
        // VP8X: canvas width − 1 and height − 1 as 24-bit little-endian numbers after 4 bytes of flags.
        XCTAssertEqual(PhotoHeader.pixels(webPHeader("VP8X", payload: [0, 0, 0, 0, 0x3F, 0x1F, 0, 0xDF, 0x0E, 0])), 8000 * 3808)
        XCTAssertEqual(PhotoHeader.pixels(webPHeader("VP8X", payload: [0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])), 16_777_216 * 16_777_216)
        // VP8L: 0x2F, then 14 bits width − 1 (639) and 14 bits height − 1 (479).
        let bits = UInt32(639) | UInt32(479) << 14
        XCTAssertEqual(PhotoHeader.pixels(webPHeader("VP8L", payload: [0x2F] + withUnsafeBytes(of: bits.littleEndian) { Array($0) })), 640 * 480)
        // VP8: frame tag, start code, 14-bit width and height.
        XCTAssertEqual(PhotoHeader.pixels(webPHeader("VP8 ", payload: [0, 0, 0, 0x9D, 0x01, 0x2A, 0x80, 0x02, 0xE0, 0x01])), 640 * 480)
        XCTAssertNil(PhotoHeader.pixels(webPHeader("VP8 ", payload: [0, 0, 0, 0, 0, 0, 0x80, 0x02, 0xE0, 0x01])), "no start code")
        XCTAssertNil(PhotoHeader.pixels(webPHeader("ALPH", payload: [0])), "not an image chunk first")

        // HEIC/AVIF: the largest ispe (the grid, not its tiles or the thumbnail).
        XCTAssertEqual(PhotoHeader.pixels(heifHeader(brand: "heic", sizes: [(512, 512), (4032, 3024), (320, 240)])), 4032 * 3024)
        XCTAssertEqual(PhotoHeader.pixels(heifHeader(brand: "avif", sizes: [(100_000, 100_000)])), 10_000_000_000)
        XCTAssertEqual(PhotoHeader.pixels(heifHeader(brand: "avif", sizes: [(.max, .max)])), TensorSize.product(Int(UInt32.max), Int(UInt32.max)))
        XCTAssertNil(PhotoHeader.pixels(heifHeader(brand: "heic", sizes: [])), "no ispe: the per-photo limit counts")
        // A box that claims more bytes than the file has ends the walk instead of reading past it.
        var lying = heifHeader(brand: "heic", sizes: [(4032, 3024)])
        lying.replaceSubrange(lying.startIndex + 20 ..< lying.startIndex + 24, with: [0x7F, 0xFF, 0xFF, 0xFF])
        XCTAssertNil(PhotoHeader.pixels(lying))
        XCTAssertNil(PhotoHeader.pixels(Data("RIFF\0\0\0\0WEBP".utf8)), "cut short")
    }

    func testAWebPCanvasBeyondTheBudgetIsRefusedBeforeDecoding() async throws {
        let model = try ServedModel(name: "squeezenet", model: try ServedModelTests.loaded.get(), batching: .init(maxBatchSize: 1),
                                    maxRequestPixels: 60_000_000)
        defer { model.shutdown() }
        // Two 8000 × 3808 canvases (30.5 Mpx each): before, each counted as the whole per-photo limit.
        let photo = webPHeader("VP8X", payload: [0, 0, 0, 0, 0x3F, 0x1F, 0, 0xDF, 0x0E, 0])
        let request = InferenceRequest(inputs: [try InferenceTensor(name: "image", shape: [2], elements: .bytes([photo, photo]))])
        do {
            _ = try await model.infer(request)
            XCTFail("two 30-megapixel canvases were accepted")
        } catch let error as InferenceError {
            XCTAssertEqual(error.kind, .tooLarge)
            XCTAssertEqual(error.message, "input 'image': the request's 2 photos hold 60928000 pixels; the limit per request is 60000000")
        }
    }

    func testARequestsPhotosShareOnePixelBudget() async throws {
        let model = try ServedModel(name: "squeezenet", model: try ServedModelTests.loaded.get(), batching: .init(maxBatchSize: 1),
                                    maxRequestPixels: 60_000_000)
        defer { model.shutdown() }
        // Two 50-megapixel photos: each under the per-photo limit, together over the request's.
        let photo = pngHeader(width: 7071, height: 7071)
        let request = InferenceRequest(inputs: [try InferenceTensor(name: "image", shape: [2], elements: .bytes([photo, photo]))])
        let start = ContinuousClock.now
        do {
            _ = try await model.infer(request)
            XCTFail("two 50-megapixel photos were accepted")
        } catch let error as InferenceError {
            XCTAssertEqual(error.kind, .tooLarge)
            XCTAssertEqual(error.message, "input 'image': the request's 2 photos hold 99998082 pixels; the limit per request is 60000000")
        }
        XCTAssertLessThan(ContinuousClock.now - start, .milliseconds(200), "rejected before any decoding")
    }

    func testAPhotoRequestPastItsDeadlineDecodesNothingMore() async throws {
        let model = try ServedModel(name: "squeezenet", model: try ServedModelTests.loaded.get(), batching: .init(maxBatchSize: 1))
        defer { model.shutdown() }
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: TestModels.redPanda))
        let request = InferenceRequest(inputs: [try InferenceTensor(name: "image", shape: [1], elements: .bytes([jpeg]))],
                                       deadline: .now - .seconds(1))
        do {
            _ = try await model.infer(request)
            XCTFail("decoded past the deadline")
        } catch let error as InferenceError {
            XCTAssertEqual(error.kind, .timeout)
        }
    }

    // MARK: 4. JSON within a limit of its own; a memory budget across requests

    func testJSONOverItsLimitIs413BeforeItIsRead() async throws {
        try await RESTRoutesTests.withServer(limits: ServerLimits(maxJSONBytes: 1000)) { _, client in
            let json = #"{"inputs":[{"name":"data","datatype":"FP32","shape":[1,3,224,224],"data":["# + String(repeating: "0,", count: 1000) + "0]}]}"
            try await client.execute(uri: "/v2/models/squeezenet/infer", method: .post, body: ByteBuffer(string: json)) { response in
                XCTAssertEqual(response.status, .contentTooLarge)
                XCTAssertEqual(try RESTRoutesTests.error(response),
                               "the request's JSON has \(json.utf8.count) bytes; the limit is 1000 (send tensors as binary data for more)")
            }
        }
    }

    func testTheInflightMemoryBudgetRejectsWith503() async throws {
        // 1 MB of budget: a 100 KB JSON body is estimated at 4 MB.
        try await RESTRoutesTests.withServer(limits: ServerLimits(maxInflightBytes: 1 << 20)) { server, client in
            let json = #"{"inputs":[{"name":"data","datatype":"FP32","shape":[1],"data":[0]}],"pad":""# + String(repeating: " ", count: 100_000) + #""}"#
            try await client.execute(uri: "/v2/models/squeezenet/infer", method: .post, body: ByteBuffer(string: json)) { response in
                XCTAssertEqual(response.status, .serviceUnavailable)
                XCTAssertTrue(try RESTRoutesTests.error(response)?.hasPrefix("the server is busy") == true)
            }
            XCTAssertEqual(server.memory.inUse, 0)
        }
        let budget = InflightMemory(limit: 100)
        try await budget.holding(60) {
            XCTAssertEqual(budget.inUse, 60)
            do {
                try await budget.holding(41) { XCTFail("over the budget") }
            } catch let error as InferenceError {
                XCTAssertEqual(error.kind, .exhausted)
                XCTAssertEqual(GRPCInferenceService.rpcError(error).code, .resourceExhausted)
            }
        }
        XCTAssertEqual(budget.inUse, 0)
    }

    // MARK: 6. Draining: not ready and no new work on both protocols

    func testDrainingRefusesNewWorkAndTurnsReadinessFalse() async throws {
        try await RESTRoutesTests.withServer { server, client in
            server.beginDraining()
            XCTAssertFalse(server.isReady)
            try await client.execute(uri: "/v2/health/ready", method: .get) { XCTAssertEqual($0.status, .serviceUnavailable) }
            try await client.execute(uri: "/v2/health/live", method: .get) { XCTAssertEqual($0.status, .ok) }
            try await client.execute(uri: "/v2/models/squeezenet/infer", method: .post,
                                     body: ByteBuffer(string: #"{"inputs":[{"name":"data","datatype":"FP32","shape":[1],"data":[0]}]}"#)) { response in
                XCTAssertEqual(response.status, .serviceUnavailable)
            }
            let grpc = GRPCInferenceService(server: server)
            var message = Inference_ModelInferRequest()
            message.modelName = "squeezenet"
            do {
                _ = try await grpc.modelInfer(request: message, context: ServerContext(descriptor: .init(fullyQualifiedService: "s", method: "m"),
                                                                                        remotePeer: "test", localPeer: "test", cancellation: .init()))
                XCTFail("gRPC took new work while draining")
            } catch let error as RPCError {
                XCTAssertEqual(error.code, .unavailable)
            }
            let left = await server.drain(timeout: .milliseconds(100))
            XCTAssertEqual(left, 0)
        }
    }

    // MARK: 7. Logs that cannot act on their reader

    func testLogLinesEscapeEveryControlAndBidiOverride() {
        let hostile = "a\u{1B}[2J\u{9B}31m\u{7F}\u{202E}\u{2066}\u{2028}\u{85}z"
        let line = LineLogHandler.keyValue([("id", hostile)])
        XCTAssertEqual(line, #"id="a\u001b[2J\u009b31m\u007f\u202e\u2066\u2028\u0085z""#)
        XCTAssertFalse(line.unicodeScalars.contains { LineLogHandler.isUnsafe($0) })
        XCTAssertFalse(LineLogHandler.json([("id", hostile)]).unicodeScalars.contains { LineLogHandler.isUnsafe($0) })
    }

    func testBulkEventsAreLoggedOncePerInterval() {
        let events = EventLog(logger: Logger(label: "test"), interval: .seconds(60))
        XCTAssertTrue(events.record("http parse error"))
        XCTAssertFalse(events.record("http parse error"))
        XCTAssertTrue(events.record("http read timeout"))
    }

    // MARK: 8. Model names in URLs are percent-decoded

    func testModelNamesArePercentDecoded() async throws {
        try await RESTRoutesTests.withServer { _, client in
            try await client.execute(uri: "/v2/models/squeeze%6Eet", method: .get) { XCTAssertEqual($0.status, .ok) }
            try await client.execute(uri: "/v2/models/squeeze%6Eet/ready", method: .get) { XCTAssertEqual($0.status, .ok) }
            try await client.execute(uri: "/v2/models/bad%zz", method: .get) { XCTAssertEqual($0.status, .badRequest) }
        }
        XCTAssertEqual(try RESTRoutes.percentDecoded("my%20model", what: "model name"), "my model")
    }
}
