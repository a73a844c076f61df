@_spi(Internals) import Fovea
import FoveaBatching
import Foundation
import FoveaServer
import XCTest

/// A served SqueezeNet 1.1 against the library: tensors as `Model.predict`
/// gives them, photos as `ClassificationRequest` classifies them.
final class ServedModelTests: XCTestCase {
    static let loaded = Result { try Model(contentsOfFile: TestModels.squeezenet).describing { $0.classLabels = try .imageNet1k } }

    private func served(maxBatchSize: Int = 4) throws -> ServedModel {
        try ServedModel(name: "squeezenet", model: try Self.loaded.get(), batching: .init(maxBatchSize: maxBatchSize, maxQueueDelay: .milliseconds(1)))
    }

    private func input(seed: Int, rows: Int = 1) -> [Float] {
        var state = UInt64(seed + 1)
        return (0..<rows * 3 * 224 * 224).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Float(Int(state >> 40) % 2001 - 1000) / 500
        }
    }

    func testMetadataShowsTheBatchDimensionAndThePhotoInput() throws {
        let model = try served()
        defer { model.shutdown() }
        XCTAssertTrue(model.batchable)
        XCTAssertEqual(model.metadata.inputs, [TensorMetadata(name: "data", datatype: .fp32, shape: [-1, 3, 224, 224]),
                                               TensorMetadata(name: "image", datatype: .bytes, shape: [-1])])
        XCTAssertEqual(model.metadata.outputs, [TensorMetadata(name: "logits", datatype: .fp32, shape: [-1, 1000])])
        XCTAssertEqual(model.metadata.platform, "fovea_onnx")
    }

    func testTensorInferenceEqualsPredictRowByRow() async throws {
        let model = try served()
        defer { model.shutdown() }
        let values = input(seed: 1, rows: 2)
        let request = InferenceRequest(id: "a", inputs: [try InferenceTensor(name: "data", shape: [2, 3, 224, 224], elements: .fp32(values))])
        let response = try await model.infer(request)
        XCTAssertEqual(response.id, "a")
        XCTAssertEqual(response.outputs.map(\.tensor.shape), [[2, 1000]])
        guard case .fp32(let logits) = response.outputs[0].tensor.elements else { return XCTFail("not FP32") }
        let size = 3 * 224 * 224
        for row in 0..<2 {
            let alone = try Self.loaded.get().predict(["data": try Tensor(shape: [1, 3, 224, 224], floats: Array(values[row * size ..< (row + 1) * size]))])
            XCTAssertEqual(Array(logits[row * 1000 ..< (row + 1) * 1000]).map(\.bitPattern), try XCTUnwrap(alone["logits"]?.floats).map(\.bitPattern))
        }
    }

    func testAPhotoIsClassifiedAsFoveaClassifyDoes() async throws {
        let model = try served()
        defer { model.shutdown() }
        let photo = try Data(contentsOf: URL(fileURLWithPath: TestModels.redPanda))
        let request = InferenceRequest(inputs: [try InferenceTensor(name: "image", shape: [1], elements: .bytes([photo]))],
                                       outputs: [.init(name: "logits", classification: 3)])
        let response = try await model.infer(request)
        guard case .bytes(let entries) = response.outputs[0].tensor.elements else { return XCTFail("not BYTES") }
        XCTAssertEqual(response.outputs[0].tensor.shape, [1, 3])
        let classify = try ClassificationRequest(model: try Self.loaded.get())
        classify.maximumObservations = 3
        let expected = try await ImageRequestHandler(contentsOfFile: TestModels.redPanda).perform(classify)
        XCTAssertEqual(entries.map { String(decoding: $0, as: UTF8.self) },
                       expected.map { observation in
                           let index = try? XCTUnwrap(ClassLabels.imageNet1k.names.firstIndex(of: observation.identifier))
                           return "\(observation.confidence):\(index ?? -1):\(observation.identifier)"
                       })
        XCTAssertTrue(String(decoding: entries[0], as: UTF8.self).contains(":387:lesser panda"))
    }

    func testBadRequestsAreProtocolErrors() async throws {
        let model = try served()
        defer { model.shutdown() }
        func message(_ inputs: [InferenceTensor], outputs: [InferenceRequest.RequestedOutput] = []) async -> String? {
            do {
                _ = try await model.infer(InferenceRequest(inputs: inputs, outputs: outputs))
                return nil
            } catch {
                return (error as? InferenceError)?.message ?? "\(error)"
            }
        }
        let good = try InferenceTensor(name: "data", shape: [1, 3, 224, 224], elements: .fp32(input(seed: 2)))
        let wrongShape = try InferenceTensor(name: "data", shape: [1, 3, 224, 223], elements: .fp32(Array(repeating: 0, count: 3 * 224 * 223)))
        let wrongType = try InferenceTensor(name: "data", shape: [1], elements: .int64([1]))
        let unknown = try InferenceTensor(name: "nope", shape: [1], elements: .fp32([1]))
        let notAPhoto = try InferenceTensor(name: "image", shape: [1], elements: .bytes([Data("GIF89a".utf8)]))
        let result1 = await message([wrongShape])
        XCTAssertEqual(result1, "input 'data' has shape [1, 3, 224, 223]; the model expects [-1, 3, 224, 224] (-1: any size ≥ 1)")
        let result2 = await message([wrongType])
        XCTAssertEqual(result2, "input 'data' has datatype INT64; the model expects FP32")
        let result3 = await message([good, unknown])
        XCTAssertEqual(result3, "model 'squeezenet' has no input 'nope' (inputs: data, image)")
        let result4 = await message([good], outputs: [.init(name: "nope")])
        XCTAssertEqual(result4, "model 'squeezenet' has no output 'nope' (outputs: logits)")
        let result5 = await message([good], outputs: [.init(name: "logits", classification: 0)])
        XCTAssertEqual(result5, "output 'logits': classification needs k ≥ 1, got 0")
        let result6 = await message([notAPhoto])
        XCTAssertEqual(result6?.hasPrefix("input 'image' element 0: "), true, result6 ?? "")
        let result7 = await message([])
        XCTAssertEqual(result7, "input 'data' is missing")
        let result8 = await message([good, good])
        XCTAssertEqual(result8, "input 'data' is given twice")
    }

    func testConcurrentRequestsGetTheirOwnResults() async throws {
        let model = try served(maxBatchSize: 8)
        defer { model.shutdown() }
        let inputs = (0..<4).map { input(seed: 10 + $0) }
        let expected = try inputs.map { try XCTUnwrap(try Self.loaded.get().predict(["data": try Tensor(shape: [1, 3, 224, 224], floats: $0)])["logits"]?.floats) }
        let results = try await withThrowingTaskGroup(of: (Int, [Float]).self) { group in
            for request in 0..<16 {
                group.addTask {
                    let which = request % 4
                    let response = try await model.infer(InferenceRequest(inputs: [try InferenceTensor(name: "data", shape: [1, 3, 224, 224], elements: .fp32(inputs[which]))]))
                    guard case .fp32(let logits) = response.outputs[0].tensor.elements else { return (which, []) }
                    return (which, logits)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        XCTAssertEqual(results.count, 16)
        for (which, logits) in results { XCTAssertEqual(logits.map(\.bitPattern), expected[which].map(\.bitPattern)) }
    }
}
