import ArgumentParser
import Foundation
@_spi(Internals) import Fovea
import FoveaCore
import FoveaTraining

struct Train: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Train a classifier on labelled folders of photos (one subfolder per class), as Create ML does.",
        discussion: """
        A pretrained network (--base) turns each image into a feature vector \
        (cached on disk: a second run with other parameters runs the network \
        zero times); a multinomial logistic regression with L2, fitted by \
        L-BFGS, learns the classes. The output (.onnx or .mlmodel) classifies \
        with no flags: `fovea classify --model OUT photo.jpg`. Each iteration \
        prints the loss and the training and validation accuracy; the run ends \
        with a summary.
        """)

    @Argument(help: "The training data: one subfolder of JPEG, PNG or PPM images per class.")
    var dataDirectory: String

    @Option(help: "The pretrained classifier whose features are used (.onnx or .mlmodel).")
    var base: String

    @Option(help: "The trained model to write: NAME.onnx or NAME.mlmodel.")
    var output: String

    @Option(help: "The value features are read from (default: the input of the final classifier, pooled; see `fovea inspect --model M --feature-layers`).")
    var featureLayer: String?

    @Option(help: "auto (Create ML's split: none under 50 images, 10% under 200, 5% above), none, or a labelled directory.")
    var validation = "auto"

    @Option(help: "Augmented copies of each training image: a comma-separated list of crop, rotate, blur, exposure, noise, flip.")
    var augment = ""

    @Option(help: "The most L-BFGS iterations.")
    var maxIterations = 25

    @Option(help: "L2 strength λ (objective: mean cross-entropy + λ/2·‖W‖²).")
    var l2 = 0.01

    @Option(help: "Seed of the validation split and the augmentation.")
    var seed: UInt64 = 0

    @Option(help: "Threads for feature extraction (default: every core).")
    var threads: Int?

    @OptionGroup var precision: PrecisionOption

    @Option(help: "A class with fewer training images is an error.")
    var minImagesPerClass = 2

    @Option(help: "The feature cache folder (default: $FOVEA_CACHE_DIR, else $XDG_CACHE_HOME/fovea/features, else $HOME/.cache/fovea/features).")
    var cacheDir: String?

    @Flag(help: "Compute every feature again and cache nothing.")
    var noCache = false

    @Flag(help: "Print the summary as JSON.")
    var json = false

    func validate() throws {
        try ThreadCount.validate(threads)
        if maxIterations < 1 { throw ValidationError("--max-iterations must be at least 1") }
        if !(l2 >= 0) || !l2.isFinite { throw ValidationError("--l2 must be a number >= 0") }
        if minImagesPerClass < 1 { throw ValidationError("--min-images-per-class must be at least 1") }
        let ext = (output as NSString).pathExtension.lowercased()
        if ext != "onnx" && ext != "mlmodel" { throw ValidationError("--output must end in .onnx or .mlmodel") }
        do { _ = try ImageAugmentation(parsing: augment) } catch { throw ValidationError("--augment: \(error)") }
    }

    func run() throws {
        var parameters = ImageClassifierParameters(baseModel: base)
        parameters.featureLayer = featureLayer
        parameters.maxIterations = maxIterations
        parameters.l2 = l2
        parameters.seed = seed
        parameters.threads = ThreadCount.used(threads)
        parameters.precision = precision.precision
        parameters.minimumImagesPerClass = minImagesPerClass
        parameters.augmentation = try ImageAugmentation(parsing: augment)
        parameters.validation = switch validation { case "auto": .automatic; case "none": .none; default: .directory(validation) }
        parameters.cache = noCache ? nil : FeatureCache(directory: cacheDir ?? FeatureCache.defaultDirectory)
        // Fail before computing features if the output cannot be written.
        try ImageClassifier.checkExport(to: output, parameters: parameters)
        let start = Date()
        let bar = TrainingProgressPrinter(quiet: json)
        let classifier = try ImageClassifier(trainingData: dataDirectory, parameters: parameters) { bar.show($0) }
        try classifier.write(to: output)
        bar.finish()
        let report = classifier.report
        for file in report.unreadableImages { printWarning("skipped unreadable image \(file.path): \(file.message)") }
        if !report.ignoredFiles.isEmpty {
            printWarning("ignored \(report.ignoredFiles.count) file(s) that are not images (.jpg, .png, .heic, .avif, .webp, .ppm), such as \(SafeText.escaped(report.ignoredFiles[0]))")
        }
        let seconds = Date().timeIntervalSince(start)
        if json {
            var summary: [String: Any] = [
                "classes": classifier.classes, "training_images": report.trainingImagesPerClass,
                "validation_images": report.validationImagesPerClass, "features_computed": report.featuresComputed,
                "features_cached": report.featuresCached, "unreadable_images": report.unreadableImages.map(\.path),
                "ignored_files": report.ignoredFiles.count, "iterations": report.iterations, "converged": report.converged,
                "loss": report.finalLoss, "training_accuracy": classifier.trainingMetrics.accuracy,
                "feature_layer": classifier.extractor.layer.name, "feature_width": classifier.extractor.layer.width,
                "extraction_seconds": report.extractionSeconds, "fit_seconds": report.fitSeconds, "seconds": seconds, "output": output,
            ]
            if let validation = classifier.validationMetrics { summary["validation_accuracy"] = validation.accuracy }
            let data = try JSONSerialization.data(withJSONObject: summary, options: [.sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: data, as: UTF8.self))
            return
        }
        print("images per class (training / validation):")
        for (c, name) in classifier.classes.enumerated() {
            print("  \(SafeText.escaped(name)): \(report.trainingImagesPerClass[c]) / \(report.validationImagesPerClass[c])")
        }
        print("features: \(report.featuresComputed) computed, \(report.featuresCached) cached (layer \(SafeText.escaped(classifier.extractor.layer.name)), \(classifier.extractor.layer.width) wide)")
        if !report.unreadableImages.isEmpty { print("unreadable images skipped: \(report.unreadableImages.count)") }
        print("iterations: \(report.iterations) (\(report.stopReason)), loss \(String(format: "%.5f", report.finalLoss))")
        print(String(format: "training accuracy: %.2f%%", classifier.trainingMetrics.accuracy * 100))
        if let validation = classifier.validationMetrics {
            print(String(format: "validation accuracy: %.2f%%", validation.accuracy * 100))
        } else {
            print("validation accuracy: none (no validation images)")
        }
        print(String(format: "seconds: %.2f (features %.2f, fit %.3f)", seconds, report.extractionSeconds, report.fitSeconds))
        print("wrote \(output)")
    }
}

/// Prints training progress on standard error: a feature bar with images per
/// second (on a terminal), then one line per iteration.
final class TrainingProgressPrinter: @unchecked Sendable {
    // @unchecked: training calls it from one thread at a time.
    private let quiet: Bool
    private let terminal = isatty(FileHandle.standardError.fileDescriptor) != 0
    private var barShown = false

    init(quiet: Bool) { self.quiet = quiet }

    func show(_ progress: ImageClassifier.Progress) {
        guard !quiet else { return }
        switch progress {
        case .features(let done, let total, let rate):
            guard terminal else { return }
            let filled = total > 0 ? done * 30 / total : 30
            let bar = String(repeating: "=", count: filled) + String(repeating: " ", count: 30 - filled)
            write("\r[\(bar)] \(done)/\(total) images, \(String(format: "%.1f", rate)) images/s")
            barShown = true
        case .iteration(let k, let loss, let training, let validation):
            finishBar()
            let valid = validation.map { String(format: "%.2f%%", $0 * 100) } ?? "-"
            write(String(format: "iteration %3d  loss %.5f  training %.2f%%  validation %@\n", k, loss, training * 100, valid))
        }
    }

    func finish() { finishBar() }

    private func finishBar() {
        if barShown { write("\n"); barShown = false }
    }

    private func write(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }
}
