import Foundation
import XCTest
@_spi(Internals) import Fovea
import FoveaTraining

/// `fovea train`, `fovea classify` and `fovea evaluate` end to end.
final class TrainCommandTests: XCTestCase {
    func testTrainThenClassifyAndEvaluateWithNoFlags() throws {
        let data = try TrainingDataSet.prepared()
        let work = try TrainingDataSet.temporaryDirectory()
        let model = "\(work)/four.mlmodel"
        let train = try TrainingDataSet.fovea(["train", data.training, "--base", TrainingDataSet.squeezeNet, "--output", model,
                                               "--cache-dir", TrainingDataSet.sharedCache.directory, "--seed", "3"])
        XCTAssertEqual(train.status, 0, train.stderr)
        for line in ["images per class (training / validation):", "  coffee: 12 / 0", "training accuracy: 100.00%", "wrote \(model)"] {
            XCTAssertTrue(train.stdout.contains(line), "missing '\(line)' in\n\(train.stdout)")
        }
        XCTAssertTrue(train.stderr.contains("iteration   1  loss"), train.stderr)

        let classify = try TrainingDataSet.fovea(["classify", "--model", model, "\(data.heldOut)/rocket/0.png"])
        XCTAssertEqual(classify.status, 0, classify.stderr)
        XCTAssertTrue(classify.stdout.split(separator: "\n")[1].hasSuffix("rocket"), classify.stdout)

        let svg = "\(work)/confusion.svg"
        let evaluate = try TrainingDataSet.fovea(["evaluate", "--model", model, data.heldOut, "--json", "--svg", svg])
        XCTAssertEqual(evaluate.status, 0, evaluate.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(evaluate.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["classes"] as? [String], TrainingDataSet.classes)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(json["accuracy"] as? Double), 22.0 / 24)
        let confusion = try XCTUnwrap(json["confusion"] as? [[Int]])
        XCTAssertEqual(confusion.flatMap { $0 }.reduce(0, +), 24)
        XCTAssertEqual((json["precision"] as? [Double])?.count, 4)
        XCTAssertEqual((json["recall"] as? [Double])?.count, 4)
        XCTAssertTrue(try String(contentsOfFile: svg, encoding: .utf8).hasPrefix("<svg"))

        // The table, on two images (one network run each).
        let small = "\(work)/small"
        for name in ["coffee", "rocket"] {
            try FileManager.default.createDirectory(atPath: "\(small)/\(name)", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: "\(data.heldOut)/\(name)/0.png", toPath: "\(small)/\(name)/0.png")
        }
        let table = try TrainingDataSet.fovea(["evaluate", "--model", model, small])
        XCTAssertTrue(table.stdout.hasPrefix("accuracy "), table.stdout)
        XCTAssertTrue(table.stdout.contains("class        precision  recall"), table.stdout)
        XCTAssertTrue(table.stdout.contains("confusion (rows: true class, columns: predicted"), table.stdout)
    }

    func testBadCommandLines() throws {
        let data = try TrainingDataSet.prepared()
        let badOutput = try TrainingDataSet.fovea(["train", data.training, "--base", TrainingDataSet.squeezeNet, "--output", "x.txt"])
        XCTAssertEqual(badOutput.status, 64)
        XCTAssertTrue(badOutput.stderr.contains("--output must end in .onnx or .mlmodel"), badOutput.stderr)
        let badAugment = try TrainingDataSet.fovea(["train", data.training, "--base", TrainingDataSet.squeezeNet, "--output", "x.onnx", "--augment", "sepia"])
        XCTAssertEqual(badAugment.status, 64)
        XCTAssertTrue(badAugment.stderr.contains("unknown augmentation 'sepia'"), badAugment.stderr)
        // Checked before any feature is computed.
        let coreMLBase = try TrainingDataSet.fovea(["train", data.training, "--base", "\(TrainingDataSet.models)/coreml/SqueezeNet11.mlmodel",
                                                    "--output", "x.onnx", "--no-cache"])
        XCTAssertEqual(coreMLBase.status, 1)
        XCTAssertTrue(coreMLBase.stderr.contains("an ONNX export needs an ONNX base model; write a .mlmodel instead"), coreMLBase.stderr)
        XCTAssertFalse(coreMLBase.stderr.contains("iteration"), coreMLBase.stderr)
        let noLabels = try TrainingDataSet.fovea(["evaluate", "--model", TrainingDataSet.squeezeNet, data.heldOut])
        XCTAssertEqual(noLabels.status, 1)
        XCTAssertTrue(noLabels.stderr.contains("the model has no class labels"), noLabels.stderr)
        let layers = try TrainingDataSet.fovea(["inspect", "--model", TrainingDataSet.squeezeNet, "--feature-layers"])
        XCTAssertTrue(layers.stdout.contains("* fire9"), layers.stdout)
        XCTAssertTrue(layers.stdout.contains("logits"), layers.stdout)
    }
}
