import Foundation
import XCTest
@_spi(Internals) import Fovea
import FoveaTools
import FoveaTraining

/// Trains on the generated data set (4 classes of the shared photos, 12
/// training and 6 held-out images each) from SqueezeNet 1.1's pooled
/// penultimate layer, exports, and reloads.
final class ImageClassifierTests: XCTestCase {
    /// One trained classifier shared by the tests of this class.
    static let trained = Once<ImageClassifier>()

    static func classifier(cache: String? = nil) throws -> ImageClassifier {
        try trained.run {
            let data = try TrainingDataSet.prepared()
            var parameters = ImageClassifierParameters(baseModel: TrainingDataSet.squeezeNet)
            parameters.seed = 7
            parameters.maxIterations = 50
            parameters.cache = TrainingDataSet.sharedCache
            return try ImageClassifier(trainingData: data.training, parameters: parameters)
        }
    }

    func testTrainingReachesHeldOutAccuracy() throws {
        let classifier = try Self.classifier()
        XCTAssertEqual(classifier.classes, TrainingDataSet.classes)
        XCTAssertEqual(classifier.extractor.layer.width, 512)
        XCTAssertTrue(classifier.extractor.layer.isPooled)
        XCTAssertEqual(classifier.report.trainingImagesPerClass, [12, 12, 12, 12])
        XCTAssertNil(classifier.validationMetrics, "48 images: Create ML's rule makes no validation split under 50")
        XCTAssertEqual(classifier.trainingMetrics.accuracy, 1)
        let heldOut = try classifier.evaluation(on: try TrainingDataSet.prepared().heldOut)
        XCTAssertEqual(heldOut.count, 24)
        // Stated accuracy on the 24 held-out crops, seed 7: at least 22 of 24 (91.6%).
        XCTAssertGreaterThanOrEqual(heldOut.accuracy, 22.0 / 24, heldOut.table)
    }

    func testONNXExportClassifiesWithNoFlagsAsTheTrainerDoes() throws {
        try checkExport("onnx")
    }

    func testCoreMLExportClassifiesWithNoFlagsAsTheTrainerDoes() throws {
        try checkExport("mlmodel")
        let model = try Model(contentsOfFile: TrainingDataSet.workDirectory + "/four.mlmodel")
        XCTAssertEqual(model.modelDescription.classifierOutputNames?.label, "classLabel")
        XCTAssertEqual(model.modelDescription.classifierOutputNames?.probabilities, "classLabelProbs")
    }

    /// Writes the model into .build-training (where scripts/ci/training-check.py
    /// runs onnxruntime and coremltools on it), reloads it in Fovea and
    /// classifies the held-out images: the same probabilities as the trainer's.
    private func checkExport(_ format: String) throws {
        let classifier = try Self.classifier()
        let output = TrainingDataSet.workDirectory + "/four.\(format)"
        try classifier.write(to: output)
        let model = try Model(contentsOfFile: output)
        XCTAssertEqual(model.modelDescription.classLabels?.names, TrainingDataSet.classes)
        let request = try ClassificationRequest(model: model)
        // Every other held-out image (12): one network run each.
        let examples = try LabeledImageDirectory(contentsOf: try TrainingDataSet.prepared().heldOut).examples.enumerated()
            .filter { $0.offset % 2 == 0 }.map(\.element)
        let features = classifier.extractor.extract(examples.map { .init(path: $0.path) }).features
        var inputs: [Float] = [], probabilities: [Float] = []
        for (example, vector) in zip(examples, features) {
            let expected = classifier.probabilities(forFeatures: try XCTUnwrap(vector))
            let input = try request.inputTensor(for: try ImageRequestHandler(contentsOfFile: example.path).image)
            let scores = try XCTUnwrap(try model.predict([model.graph.inputs[0].name: input])[try XCTUnwrap(model.modelDescription.scoresOutputName)]?.floats)
            // The model's input and Fovea's output, for onnxruntime (scripts/ci/training-check.py).
            inputs += try XCTUnwrap(input.floats)
            probabilities += scores
            let observations = request.observations(forScores: scores)
            XCTAssertEqual(observations.count, classifier.classes.count)
            for observation in observations {
                let index = try XCTUnwrap(classifier.classes.firstIndex(of: observation.identifier))
                XCTAssertEqual(Double(observation.confidence), expected[index], accuracy: 1e-4, example.path)
            }
            XCTAssertEqual(observations.first?.identifier, classifier.classes[expected.indices.max { expected[$0] < expected[$1] }!])
        }
        let count = examples.count
        try NumpyFile.write(try Tensor(shape: [count, 3, 224, 224], floats: inputs), to: TrainingDataSet.workDirectory + "/\(format)-inputs.npy")
        try NumpyFile.write(try Tensor(shape: [count, classifier.classes.count], floats: probabilities), to: TrainingDataSet.workDirectory + "/\(format)-fovea-probabilities.npy")
    }

    func testONNXAndCoreMLExportsAgree() throws {
        let classifier = try Self.classifier()
        let onnx = TrainingDataSet.workDirectory + "/agree.onnx", coreML = TrainingDataSet.workDirectory + "/agree.mlmodel"
        try classifier.write(to: onnx)
        try classifier.write(to: coreML)
        let a = try ClassificationRequest(model: try Model(contentsOfFile: onnx))
        let b = try ClassificationRequest(model: try Model(contentsOfFile: coreML))
        let photo = try ImageRequestHandler(contentsOfFile: TrainingDataSet.models + "/photos/red_panda.jpg")
        let pa = try photo.performAndWait(a), pb = try photo.performAndWait(b)
        XCTAssertEqual(pa.map(\.identifier), pb.map(\.identifier))
        for (x, y) in zip(pa, pb) { XCTAssertEqual(x.confidence, y.confidence, accuracy: 1e-5) }
        XCTAssertEqual(pa.first?.identifier, "red_panda")
        XCTAssertThrowsError(try classifier.write(to: TrainingDataSet.workDirectory + "/four.txt"))
    }
}
