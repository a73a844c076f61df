import Foundation
import XCTest
@_spi(Internals) import Fovea
import FoveaTraining

/// A second run over the same images reads every feature from the cache and
/// runs the network zero times; other keys (layer, augmentation) miss.
final class FeatureCacheTests: XCTestCase {
    func testSecondExtractionRunsTheNetworkZeroTimes() throws {
        let data = try TrainingDataSet.prepared()
        let cache = FeatureCache(directory: try TrainingDataSet.temporaryDirectory())
        let images = try LabeledImageDirectory(contentsOf: data.heldOut).examples.prefix(6).map { FeatureExtractor.Job(path: $0.path) }
        let extractor = try FeatureExtractor(baseModelAt: TrainingDataSet.squeezeNet, cache: cache)
        let first = extractor.extract(images)
        XCTAssertEqual(first.computed, 6)
        XCTAssertEqual(first.cached, 0)
        let second = try FeatureExtractor(baseModelAt: TrainingDataSet.squeezeNet, cache: cache).extract(images)
        XCTAssertEqual(second.computed, 0)
        XCTAssertEqual(second.cached, 6)
        XCTAssertEqual(second.features, first.features)
        // The 1000-wide output is another layer: nothing cached for it yet.
        let output = try FeatureExtractor(baseModelAt: TrainingDataSet.squeezeNet, featureLayer: "logits", cache: cache)
        XCTAssertEqual(output.layer.width, 1000)
        XCTAssertEqual(output.extract(Array(images.prefix(2))).computed, 2)
        // An augmented copy is keyed apart from the plain image, and is the same on every run (seeded).
        let flipped = images.prefix(2).map { FeatureExtractor.Job(path: $0.path, augmentation: .flip, seed: 3) }
        let augmented = extractor.extract(flipped)
        XCTAssertEqual(augmented.computed, 2)
        XCTAssertNotEqual(augmented.features[0], first.features[0])
        XCTAssertEqual(extractor.extract(flipped).cached, 2)
    }

    func testCLISecondTrainRunsTheNetworkZeroTimes() throws {
        let data = try TrainingDataSet.prepared()
        let work = try TrainingDataSet.temporaryDirectory()
        let arguments = ["train", data.training, "--base", TrainingDataSet.squeezeNet, "--output", "\(work)/m.onnx",
                         "--cache-dir", "\(work)/cache", "--json", "--max-iterations", "5"]
        let first = try TrainingDataSet.fovea(arguments)
        XCTAssertEqual(first.status, 0, first.stderr)
        let second = try TrainingDataSet.fovea(arguments + ["--l2", "0.1"])
        XCTAssertEqual(second.status, 0, second.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["features_computed"] as? Int, 0)
        XCTAssertEqual(json["features_cached"] as? Int, 48)
    }

    /// Issue 34: the default folder follows $FOVEA_CACHE_DIR, then $XDG_CACHE_HOME,
    /// then $HOME (from the environment, not the password database).
    func testDefaultDirectoryFollowsTheEnvironment() {
        XCTAssertEqual(FeatureCache.defaultDirectory(environment: ["HOME": "/tmp/x"]), "/tmp/x/.cache/fovea/features")
        XCTAssertEqual(FeatureCache.defaultDirectory(environment: ["HOME": "/tmp/x", "XDG_CACHE_HOME": "/tmp/xdg"]), "/tmp/xdg/fovea/features")
        XCTAssertEqual(FeatureCache.defaultDirectory(environment: ["HOME": "/tmp/x", "XDG_CACHE_HOME": "/tmp/xdg", "FOVEA_CACHE_DIR": "/tmp/f"]), "/tmp/f")
        XCTAssertEqual(FeatureCache.defaultDirectory(environment: ["HOME": "/tmp/x", "XDG_CACHE_HOME": "", "FOVEA_CACHE_DIR": ""]), "/tmp/x/.cache/fovea/features")
    }

    /// The same through `fovea train`: with only HOME set, the cache lands under it.
    func testCLITrainWritesItsCacheUnderHome() throws {
        let data = try TrainingDataSet.prepared()
        let work = try TrainingDataSet.temporaryDirectory()
        let home = "\(work)/home"
        let result = try TrainingDataSet.fovea(["train", data.training, "--base", TrainingDataSet.squeezeNet, "--output", "\(work)/m.onnx",
                                                "--json", "--max-iterations", "2"],
                                               environment: ["HOME": home])
        XCTAssertEqual(result.status, 0, result.stderr)
        let cached = FileManager.default.enumerator(atPath: "\(home)/.cache/fovea/features")?.allObjects.count ?? 0
        XCTAssertGreaterThan(cached, 0, "nothing under \(home)/.cache/fovea/features")
    }
}
