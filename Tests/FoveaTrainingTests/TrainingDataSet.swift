import Foundation
@_spi(Internals) import Fovea
import FoveaCore
import FoveaImage
import FoveaTraining

/// The training tests' data set, made from the shared photos (never committed):
/// one class per photo, each image a different seeded crop of it (35–80% of
/// each side), with a per-channel colour gain and Gaussian noise, 128×128.
/// Held-out images use other seeds, so no crop is shared with training.
enum TrainingDataSet {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let models = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/models").path
    static let squeezeNet = "\(models)/squeezenet1.1.onnx"
    static let classes = ["chelsea_cat", "coffee", "red_panda", "rocket"]
    static let photoFiles = ["chelsea_cat": "chelsea_cat.png", "coffee": "coffee.png", "red_panda": "red_panda.jpg", "rocket": "rocket.jpg"]

    /// `.build-training/` in the package root: the data set and what the Python
    /// checks (scripts/ci/training-check.py) read.
    static let workDirectory = packageRoot.appendingPathComponent(".build-training").path

    /// Writes `count` images per class into `directory/<class>/`, alternating PNG and JPEG.
    static func write(to directory: String, perClass count: Int, seed: UInt64) throws {
        for (c, name) in classes.enumerated() {
            let photo = try ImageRequestHandler(contentsOfFile: "\(models)/photos/\(photoFiles[name]!)").image
            let folder = "\(directory)/\(name)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for i in 0..<count {
                var random = SeededGenerator(seed: seed &* 1_000_003 &+ UInt64(c * 1000 + i))
                let image = try variant(of: photo, using: &random)
                let path = "\(folder)/\(i).\(i % 2 == 0 ? "png" : "jpg")"
                try ImageEncoder.encode(image, forPath: path).write(to: URL(fileURLWithPath: path))
            }
        }
    }

    static func variant(of photo: RGBImage, using random: inout SeededGenerator) throws -> RGBImage {
        let w = Int(Double(photo.width) * Double.random(in: 0.35...0.8, using: &random))
        let h = Int(Double(photo.height) * Double.random(in: 0.35...0.8, using: &random))
        let x = Int.random(in: 0...(photo.width - w), using: &random), y = Int.random(in: 0...(photo.height - h), using: &random)
        let crop = try photo.cropped(x: x, y: y, width: w, height: h).resized(width: 128, height: 128)
        let gains = (0..<3).map { _ in Double.random(in: 0.8...1.2, using: &random) }
        let sigma = Double.random(in: 0...10, using: &random)
        var pixels = crop.pixels
        for i in pixels.indices {
            let noise = Double(random.nextGaussian()) * sigma
            pixels[i] = UInt8(min(255, max(0, (Double(pixels[i]) * gains[i % 3] + noise).rounded())))
        }
        return try RGBImage(width: 128, height: 128, pixels: pixels)
    }

    /// The training (12 per class) and held-out (6 per class) directories,
    /// written once per test process.
    static func prepared() throws -> (training: String, heldOut: String) {
        try once.run {
            let training = "\(workDirectory)/dataset/train", heldOut = "\(workDirectory)/dataset/heldout"
            try? FileManager.default.removeItem(atPath: "\(workDirectory)/dataset")
            try write(to: training, perClass: 12, seed: 1)
            try write(to: heldOut, perClass: 6, seed: 2)
            return (training, heldOut)
        }
    }

    private static let once = Once<(training: String, heldOut: String)>()

    /// One feature cache for the tests of this process that do not test caching
    /// itself, so that the same image's features are computed once.
    static let sharedCache = FeatureCache(directory: FileManager.default.temporaryDirectory
        .appendingPathComponent("fovea-training-cache-\(UUID().uuidString)").path)

    /// Runs the built `fovea` (beside the test bundle): exit status, standard output, standard error.
    /// Runs `fovea`; `environment`, if given, replaces the cache variables
    /// (FOVEA_CACHE_DIR, XDG_CACHE_HOME, HOME) of this process's environment.
    static func fovea(_ arguments: [String], environment: [String: String]? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        let products = Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }?.bundleURL.deletingLastPathComponent() ?? Bundle.main.bundleURL
        let process = Process()
        process.executableURL = products.appendingPathComponent("fovea")
        process.arguments = arguments
        if let environment {
            var merged = ProcessInfo.processInfo.environment
            for name in ["FOVEA_CACHE_DIR", "XDG_CACHE_HOME", "HOME"] { merged[name] = nil }
            process.environment = merged.merging(environment) { $1 }
        }
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("fovea-stderr-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: errors.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errors) }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), (try? String(contentsOf: errors, encoding: .utf8)) ?? "")
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fovea-training-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

/// Runs a throwing computation once and keeps its result.
final class Once<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `value` is only touched while holding `lock`.
    private let lock = NSLock()
    private var value: Value?

    func run(_ make: () throws -> Value) throws -> Value {
        try lock.withLock {
            if let value { return value }
            let made = try make()
            value = made
            return made
        }
    }
}
