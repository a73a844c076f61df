import Foundation
import XCTest
import Fovea
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
        let classifier = try Self.classifier()
        let output = try TrainingDataSet.temporaryDirectory() + "/four.onnx"
        try classifier.write(to: output)
        let model = try Model(contentsOf: output)
        XCTAssertEqual(model.modelDescription.classLabels?.names, TrainingDataSet.classes)
        let request = try ClassificationRequest(model: model)
        let heldOut = try LabeledImageDirectory(contentsOf: try TrainingDataSet.prepared().heldOut)
        let features = classifier.extractor.extract(heldOut.examples.map { .init(path: $0.path) }).features
        for (example, vector) in zip(heldOut.examples, features) {
            let expected = classifier.probabilities(forFeatures: try XCTUnwrap(vector))
            let observations = try ImageRequestHandler(contentsOf: example.path).perform(request)
            for observation in observations {
                let index = try XCTUnwrap(classifier.classes.firstIndex(of: observation.identifier))
                XCTAssertEqual(Double(observation.confidence), expected[index], accuracy: 1e-4, example.path)
            }
        }
    }
}
