import Foundation
import XCTest
@_spi(Internals) @testable import Fovea

/// Issue 15, part 5: Core ML's `prediction(from:)` with `classLabel` and
/// `classLabelProbs`, and `predictions(fromBatch:)`.
final class PredictionTests: XCTestCase {
    private let photos = ["red_panda.jpg", "coffee.png", "chelsea_cat.png"]

    /// The model's input for each photo, prepared as `fovea classify` prepares it.
    private func inputs(for model: Model, photos: [String]) throws -> [[String: Tensor]] {
        let request = try ClassificationRequest(model: model)
        let name = try XCTUnwrap(model.modelDescription.imageInput?.name)
        return try photos.map { photo in
            [name: try request.inputTensor(for: try ImageRequestHandler(contentsOfFile: TestData.photo(photo)).image)]
        }
    }

    func testAnONNXClassifierWithLabelsGivesClassLabelAndProbabilities() throws {
        let model = try Model(contentsOfFile: TestData.model("squeezenet1.1.onnx")).describing { $0.classLabels = try .imageNet1k }
        let input = try XCTUnwrap(inputs(for: model, photos: ["red_panda.jpg"]).first)
        let prediction = try model.prediction(from: input)
        XCTAssertEqual(prediction.outputs, try model.predict(input), "the raw outputs are all there")
        XCTAssertEqual(prediction.classLabel, "lesser panda, red panda, panda, bear cat, cat bear, Ailurus fulgens")
        let probabilities = try XCTUnwrap(prediction.classLabelProbs)
        // ImageNet names two classes 'crane': their probabilities add up under one key.
        XCTAssertEqual(probabilities.count, 999)
        XCTAssertEqual(probabilities.values.reduce(0, +), 1, accuracy: 1e-4)
        // The same numbers the request API reports.
        let observations = try ClassificationRequest(model: model).observations(forInputTensor: try XCTUnwrap(input["data"]))
        XCTAssertEqual(try XCTUnwrap(probabilities[observations[0].identifier]), observations[0].confidence, accuracy: 1e-6)
        let cranes = observations.filter { $0.identifier == "crane" }.map(\.confidence)
        XCTAssertEqual(cranes.count, 2)
        XCTAssertEqual(try XCTUnwrap(probabilities["crane"]), cranes.reduce(0, +), accuracy: 1e-6)
    }

    func testACoreMLClassifierGivesItsOwnLabels() throws {
        let model = try Model(contentsOfFile: TestData.model("coreml/SqueezeNet11.mlmodel"))
        let input = try XCTUnwrap(inputs(for: model, photos: ["red_panda.jpg"]).first)
        let prediction = try model.prediction(from: input)
        XCTAssertEqual(prediction.classLabel?.hasPrefix("lesser panda"), true, "\(prediction.classLabel ?? "nil")")
        XCTAssertEqual(prediction.classLabelProbs?.count, 1000, "the Core ML model's labels are unique")
        XCTAssertEqual(try XCTUnwrap(prediction.classLabelProbs?.values.reduce(0, +)), 1, accuracy: 1e-4)
    }

    func testAModelWithoutLabelsGivesOnlyItsOutputs() throws {
        let model = try Model(contentsOfFile: TestData.model("squeezenet1.1.onnx"))
        let input = try XCTUnwrap(inputs(for: model, photos: ["red_panda.jpg"]).first)
        let prediction = try model.prediction(from: input)
        XCTAssertNil(prediction.classLabel)
        XCTAssertNil(prediction.classLabelProbs)
        XCTAssertEqual(prediction.outputs["logits"]?.shape.last, 1000)
    }

    func testABatchEqualsOneAtATime() throws {
        let model = try Model(contentsOfFile: TestData.model("squeezenet1.1.onnx"), configuration: ModelConfiguration(threads: 2))
            .describing { $0.classLabels = try .imageNet1k }
        let batch = try inputs(for: model, photos: photos)
        XCTAssertNotNil(Model.stacked(batch), "same shapes: one stacked run")
        let batched = try model.predictions(fromBatch: batch)
        let single = try batch.map(model.prediction(from:))
        XCTAssertEqual(batched.count, photos.count)
        for (index, (a, b)) in zip(batched, single).enumerated() {
            XCTAssertEqual(a.classLabel, b.classLabel, photos[index])
            let x = try XCTUnwrap(a.outputs["logits"]), y = try XCTUnwrap(b.outputs["logits"])
            XCTAssertEqual(x.shape, y.shape)
            let scale = (y.floats ?? []).map(abs).max() ?? 1
            for (u, v) in zip(x.floats ?? [], y.floats ?? []) { XCTAssertEqual(u, v, accuracy: 1e-4 * scale) }
        }
        XCTAssertEqual(batched[1].classLabel, "espresso")
        XCTAssertTrue(try model.predictions(fromBatch: []).isEmpty)
    }

    func testInputsThatCannotBeStackedRunOneAtATime() throws {
        let model = try Model(contentsOfFile: TestData.model("squeezenet1.1.onnx")).describing { $0.classLabels = try .imageNet1k }
        let one = try inputs(for: model, photos: ["red_panda.jpg"])[0]
        let pair = try model.predict(["data": Tensor(shape: [2, 3, 224, 224], repeating: 0.5)])
        let batch: [[String: Tensor]] = [one, ["data": Tensor(shape: [2, 3, 224, 224], repeating: 0.5)]]
        XCTAssertNil(Model.stacked(batch), "an input that is already a batch of two")
        let predictions = try model.predictions(fromBatch: batch)
        XCTAssertEqual(predictions.count, 2)
        XCTAssertEqual(predictions[0].classLabel?.hasPrefix("lesser panda"), true)
        XCTAssertEqual(predictions[1].outputs, pair)
        XCTAssertNil(predictions[1].classLabel, "two rows of scores: no single label")
        XCTAssertNil(predictions[1].classLabelProbs)
    }

    func testStackAndSplitAreInverse() throws {
        let a = try Tensor(shape: [1, 2], floats: [1, 2]), b = try Tensor(shape: [1, 2], floats: [3, 4])
        let ids = try Tensor(shape: [1], int64s: [7])
        let stacked = try XCTUnwrap(Model.stacked([["x": a, "i": ids], ["x": b, "i": ids]]))
        XCTAssertEqual(stacked["x"], try Tensor(shape: [2, 2], floats: [1, 2, 3, 4]))
        XCTAssertEqual(stacked["i"], try Tensor(shape: [2], int64s: [7, 7]))
        let split = try XCTUnwrap(Model.split(stacked, count: 2))
        XCTAssertEqual(split[0], ["x": a, "i": ids])
        XCTAssertEqual(split[1], ["x": b, "i": ids])
        XCTAssertNil(Model.stacked([["x": a], ["y": b]]), "different input names")
        XCTAssertNil(Model.stacked([["x": stacked["x"]!], ["x": stacked["x"]!]]), "a leading dimension other than 1")
        XCTAssertNil(Model.split(["x": a], count: 2), "an output that lost the batch dimension")
    }

    func testAFailingBatchThrowsTheFirstInputsError() throws {
        let model = try Model(contentsOfFile: TestData.model("squeezenet1.1.onnx"))
        let good = try inputs(for: model, photos: ["red_panda.jpg"])[0]
        let tooSmall = Tensor(shape: [1, 3, 2, 2], repeating: 0)
        XCTAssertThrowsError(try model.predictions(fromBatch: [good, ["data": tooSmall]])) { error in
            XCTAssertTrue(error is FoveaError, "\(error)")
        }
    }
}

/// Issue 15, part 5: a request performed on many images in one batched run.
final class BatchClassificationTests: XCTestCase {
    private let photos = ["red_panda.jpg", "coffee.png", "chelsea_cat.png", "rocket.jpg"]

    func testABatchGivesEachImagesObservationsAsOneAtATime() throws {
        let model = try Model(contentsOfFile: TestData.model("squeezenet1.1.onnx"), configuration: ModelConfiguration(threads: 2))
            .describing { $0.classLabels = try .imageNet1k }
        let request = try ClassificationRequest(model: model)
        request.maximumObservations = 3
        let handlers = try photos.map { try ImageRequestHandler(contentsOfFile: TestData.photo($0)) }
        let batched = try ImageRequestHandler.performAndWait(request, on: handlers)
        XCTAssertEqual(batched.count, photos.count)
        for (index, handler) in handlers.enumerated() {
            let single = try handler.performAndWait(request)
            XCTAssertEqual(batched[index].map(\.identifier), single.map(\.identifier), photos[index])
            for (a, b) in zip(batched[index], single) { XCTAssertEqual(a.confidence, b.confidence, accuracy: 1e-4, photos[index]) }
        }
        XCTAssertEqual(batched[1].first?.identifier, "espresso")
        XCTAssertEqual(try request.observations(forBatch: []), [])
        XCTAssertEqual(try request.observations(forBatch: [handlers[1].image]).first?.first?.identifier, "espresso")
    }

    func testTheCompletionHandlerHearsOfEveryImage() throws {
        final class Count: @unchecked Sendable {
            let lock = NSLock()
            var successes = 0, failures = 0
        }
        let count = Count()
        let model = try Model(contentsOfFile: TestData.model("squeezenet1.1.onnx"))
        let request = try ClassificationRequest(model: model) { _, result in
            count.lock.withLock { if case .success = result { count.successes += 1 } else { count.failures += 1 } }
        }
        let handlers = try photos.prefix(2).map { try ImageRequestHandler(contentsOfFile: TestData.photo($0)) }
        _ = try ImageRequestHandler.performAndWait(request, on: handlers)
        XCTAssertEqual(count.successes, 2)
        XCTAssertEqual(count.failures, 0)

        // A description that makes every image fail: each is reported, the first error is thrown.
        let failing = try ClassificationRequest(model: model.describing { $0.imageInput?.width = 2; $0.imageInput?.height = 2 }) { _, result in
            count.lock.withLock { if case .success = result { count.successes += 1 } else { count.failures += 1 } }
        }
        XCTAssertThrowsError(try ImageRequestHandler.performAndWait(failing, on: handlers)) { error in
            XCTAssertTrue("\(error)".hasPrefix(TestData.photo(self.photos[0])), "names the first image: \(error)")
        }
        XCTAssertEqual(count.failures, 2)
    }
}
