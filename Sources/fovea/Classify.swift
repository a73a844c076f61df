import ArgumentParser
import Fovea
import Foundation

struct Classify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Classify photos (JPEG, PNG, PPM) with an image model.",
        discussion: """
        Each image's shorter side is scaled to 256/224 of the model's input size \
        with an antialiasing bilinear filter, the centre is cropped, and the pixels \
        are normalized as (p/255 - mean) / std. Confidences are the softmax of the \
        model's output unless the model already outputs probabilities.
        """
    )

    @Option(help: "The model file (.onnx).")
    var model: String

    @Option(help: "Class labels, one per line in class order.")
    var labels: String?

    @Option(help: "How many classes to show per image.")
    var top: Int = 5

    @Option(help: "Per-channel mean in the 0...1 pixel scale (r,g,b). Default: ImageNet's 0.485,0.456,0.406.")
    var mean: String?

    @Option(help: "Per-channel standard deviation in the 0...1 scale (r,g,b). Default: ImageNet's 0.229,0.224,0.225.")
    var std: String?

    @Flag(help: "Print JSON: {\"results\":[{\"image\":…,\"observations\":[{\"identifier\":…,\"confidence\":…}]}]}.")
    var json = false

    @Argument(help: "Image files.")
    var images: [String]

    func validate() throws {
        guard top >= 1 else { throw ValidationError("--top must be at least 1") }
        guard !images.isEmpty else { throw ValidationError("give at least one image") }
    }

    func run() throws {
        var normalization = PixelNormalization.imageNet
        if let mean { normalization.mean = try parseTriple(mean, option: "--mean") }
        if let std {
            normalization.std = try parseTriple(std, option: "--std")
            guard normalization.std.allSatisfy({ $0 > 0 }) else { throw ValidationError("--std values must be positive") }
        }
        let classifier = try ImageClassifier(
            model: try Model(contentsOf: model),
            labels: try labels.map { try ClassLabels(contentsOf: $0) },
            normalization: normalization)

        var results: [ImageResult] = []
        var failures = 0
        for image in images {
            do {
                let observations = try classifier.classify(imageAt: image, maximumObservations: top)
                results.append(ImageResult(image: image, observations: observations, error: nil))
                if !json { printText(image: image, observations: observations) }
            } catch {
                failures += 1
                results.append(ImageResult(image: image, observations: nil, error: String(describing: error)))
                printError("\(error)")
            }
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(Report(results: results)), as: UTF8.self))
        }
        if failures > 0 { throw ExitCode.failure }
    }

    private func printText(image: String, observations: [ClassificationObservation]) {
        print(image)
        for observation in observations {
            let percent = String(format: "%6.2f%%", Double(observation.confidence) * 100)
            print("  \(percent)  \(observation.identifier)")
        }
    }

    private struct ImageResult: Encodable {
        var image: String
        var observations: [ClassificationObservation]?
        var error: String?
    }

    private struct Report: Encodable {
        var results: [ImageResult]
    }
}

/// Parses `0.485,0.456,0.406`.
func parseTriple(_ text: String, option: String) throws -> [Float] {
    let values = text.split(separator: ",").map { Float($0.trimmingCharacters(in: .whitespaces)) }
    guard values.count == 3, values.allSatisfy({ $0 != nil && $0!.isFinite }) else {
        throw ValidationError("\(option) takes three comma-separated numbers, such as 0.485,0.456,0.406; got '\(text)'")
    }
    return values.compactMap { $0 }
}

/// Writes `message` to standard error as `error: message`.
func printError(_ message: String) {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
}
