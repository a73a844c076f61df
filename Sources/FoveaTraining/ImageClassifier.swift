import Foundation
@_spi(Internals) import Fovea
import FoveaCore

/// An image classifier trained on labelled folders of photos, as Create ML's
/// `MLImageClassifier` makes one: a frozen pretrained network turns each image
/// into a feature vector, and a multinomial logistic regression (L2, fitted by
/// L-BFGS) on the standardized vectors names the class.
///
/// ```swift
/// var parameters = ImageClassifierParameters(baseModel: "squeezenet1.1.onnx")
/// parameters.maxIterations = 50
/// let classifier = try ImageClassifier(trainingData: "Flowers", parameters: parameters)
/// print(classifier.trainingMetrics.accuracy, classifier.validationMetrics?.accuracy ?? 0)
/// try classifier.write(to: "Flowers.onnx")      // or "Flowers.mlmodel"
/// let test = try classifier.evaluation(on: "FlowersTest")
/// ```
public final class ImageClassifier: Sendable {
    /// Class names, in the order of the head's outputs.
    public let classes: [String]
    /// The base network cut at the feature layer, with the cache.
    public let extractor: FeatureExtractor
    /// The per-feature standardization applied before the head.
    public let standardization: FeatureStandardization
    /// The fitted logistic-regression head.
    public let head: SoftmaxRegression
    /// The parameters the classifier was trained with.
    public let parameters: ImageClassifierParameters
    /// Accuracy and per-class results on the training images.
    public let trainingMetrics: ClassificationMetrics
    /// `nil` without validation examples.
    public let validationMetrics: ClassificationMetrics?
    /// What the training run did: images, cache hits, iterations, times.
    public let report: TrainingReport

    /// Something to show while training runs.
    public enum Progress: Sendable {
        /// Feature vectors done out of the total, and images per second so far.
        case features(done: Int, total: Int, imagesPerSecond: Double)
        /// One L-BFGS iteration: the loss and the accuracies (validation `nil` without validation examples).
        case iteration(Int, loss: Double, trainingAccuracy: Double, validationAccuracy: Double?)
    }

    /// Trains on the labelled directory at `trainingData`.
    ///
    /// - Throws: `FoveaError` for bad data (see ``LabeledImageDirectory``), a
    ///   class left with no readable image, a base model that cannot be used,
    ///   or bad parameters.
    public init(trainingData: String, parameters: ImageClassifierParameters,
                progress: (@Sendable (Progress) -> Void)? = nil) throws {
        let data = try LabeledImageDirectory(contentsOf: trainingData, minimumImagesPerClass: parameters.minimumImagesPerClass)
        let extractor = try FeatureExtractor(baseModelAt: parameters.baseModel, featureLayer: parameters.featureLayer,
                                             threads: parameters.threads, precision: parameters.precision,
                                             cache: parameters.cache)
        var report = TrainingReport()
        report.ignoredFiles = data.ignoredFiles
        var (training, validation) = try Self.split(data, parameters: parameters)
        if case .directory(let path) = parameters.validation {
            let other = try LabeledImageDirectory(contentsOf: path, minimumImagesPerClass: 1)
            validation = try other.examples.map { example in
                guard let label = data.classes.firstIndex(of: other.classes[example.label]) else {
                    throw FoveaError(.invalidArgument, "validation class '\(other.classes[example.label])' is not a training class (\(data.classes.joined(separator: ", ")))", location: .init(file: path))
                }
                return .init(path: example.path, label: label)
            }
            report.ignoredFiles += other.ignoredFiles
        }
        // The training images, each followed by its augmented copies, then the validation images.
        var jobs: [FeatureExtractor.Job] = []
        var labels: [Int] = []
        var isTraining: [Bool] = []
        for example in training {
            jobs.append(.init(path: example.path))
            for option in parameters.augmentation.members {
                jobs.append(.init(path: example.path, augmentation: option.option, seed: parameters.seed))
            }
            labels += Array(repeating: example.label, count: 1 + parameters.augmentation.members.count)
            isTraining += Array(repeating: true, count: 1 + parameters.augmentation.members.count)
        }
        for example in validation {
            jobs.append(.init(path: example.path))
            labels.append(example.label)
            isTraining.append(false)
        }
        let start = Date()
        let batch = extractor.extract(jobs) { done, total in
            progress?(.features(done: done, total: total, imagesPerSecond: Double(done) / max(Date().timeIntervalSince(start), 1e-9)))
        }
        report.featuresComputed = batch.computed
        report.featuresCached = batch.cached
        report.extractionSeconds = batch.seconds
        report.unreadableImages = batch.failures
        let width = extractor.layer.width
        var trainX: [Double] = [], trainY: [Int] = [], validX: [Double] = [], validY: [Int] = []
        for (index, features) in batch.features.enumerated() {
            guard let features else { continue }
            if isTraining[index] {
                trainX += features.lazy.map(Double.init); trainY.append(labels[index])
            } else {
                validX += features.lazy.map(Double.init); validY.append(labels[index])
            }
        }
        report.trainingImagesPerClass = Self.counts(training.map(\.label), classes: data.classes.count)
        report.validationImagesPerClass = Self.counts(validation.map(\.label), classes: data.classes.count)
        let present = Set(trainY)
        let missing = data.classes.indices.filter { !present.contains($0) }.map { data.classes[$0] }
        guard missing.isEmpty else {
            throw FoveaError(.invalidArgument, "no readable training image left in class(es): \(missing.joined(separator: ", ")) (\(batch.failures.count) unreadable image(s))", location: .init(file: trainingData))
        }
        let standardization = FeatureStandardization(features: trainX, width: width)
        let trainZ = standardization.apply(trainX)
        let validZ = standardization.apply(validX)
        let fitStart = Date()
        let classCount = data.classes.count
        let fit = try SoftmaxRegression.fit(features: trainZ, labels: trainY, featureCount: width, classCount: classCount,
                                            l2: parameters.l2, maxIterations: parameters.maxIterations) { step in
            guard let progress else { return }
            let trainAccuracy = Self.accuracy(step.model, trainZ, trainY)
            let validAccuracy = validY.isEmpty ? nil : Self.accuracy(step.model, validZ, validY)
            progress(.iteration(step.iteration, loss: step.loss, trainingAccuracy: trainAccuracy, validationAccuracy: validAccuracy))
        }
        report.fitSeconds = Date().timeIntervalSince(fitStart)
        report.iterations = fit.iterations
        report.converged = fit.converged
        report.stopReason = fit.status
        report.finalLoss = fit.loss
        self.classes = data.classes
        self.extractor = extractor
        self.standardization = standardization
        self.head = fit.model
        self.parameters = parameters
        self.trainingMetrics = ClassificationMetrics(classes: data.classes, truth: trainY, predicted: Self.predictions(fit.model, trainZ, trainY.count))
        self.validationMetrics = validY.isEmpty ? nil
            : ClassificationMetrics(classes: data.classes, truth: validY, predicted: Self.predictions(fit.model, validZ, validY.count))
        self.report = report
    }

    /// Class probabilities for one raw (not standardized) feature vector.
    public func probabilities(forFeatures features: [Float]) -> [Double] {
        let logits = head.logits(standardization.apply(features.map(Double.init)))
        let top = logits.max() ?? 0
        let exps = logits.map { Foundation.exp($0 - top) }
        let total = exps.reduce(0, +)
        return exps.map { $0 / total }
    }

    /// Accuracy, precision, recall and confusion on another labelled
    /// directory (Create ML's `evaluation(on:)`). Its class names must be
    /// training classes; unreadable images are skipped and listed in the error
    /// only if none is left.
    public func evaluation(on directory: String) throws -> ClassificationMetrics {
        let data = try LabeledImageDirectory(contentsOf: directory, minimumImagesPerClass: 1)
        let labels = try data.classes.map { name in
            guard let index = classes.firstIndex(of: name) else {
                throw FoveaError(.invalidArgument, "class '\(name)' is not one the classifier knows (\(classes.joined(separator: ", ")))", location: .init(file: directory))
            }
            return index
        }
        let batch = extractor.extract(data.examples.map { .init(path: $0.path) })
        var truth: [Int] = [], predicted: [Int] = []
        for (example, features) in zip(data.examples, batch.features) {
            guard let features else { continue }
            truth.append(labels[example.label])
            predicted.append(head.predictedClass(standardization.apply(features.map(Double.init))))
        }
        guard !truth.isEmpty else {
            throw FoveaError(.invalidArgument, "no readable image (\(batch.failures.map(\.path).joined(separator: ", ")))", location: .init(file: directory))
        }
        return ClassificationMetrics(classes: classes, truth: truth, predicted: predicted)
    }

    /// Writes the classifier as one model file: `.onnx` or `.mlmodel`, from the extension.
    public func write(to path: String) throws {
        let data = try ClassifierExport.data(.init(self), forPath: path)
        do { try data.write(to: URL(fileURLWithPath: path)) } catch {
            throw FoveaError(.io, "cannot write the model (\(error.localizedDescription))", location: .init(file: path))
        }
    }

    /// Throws the error ``write(to:)`` would throw for a model trained with
    /// `parameters` (a format the base model cannot be written in, a layer Core
    /// ML has no equivalent for), before any feature is computed. Writes nothing.
    public static func checkExport(to path: String, parameters: ImageClassifierParameters) throws {
        let extractor = try FeatureExtractor(baseModelAt: parameters.baseModel, featureLayer: parameters.featureLayer,
                                             threads: 1, cache: nil)
        let width = extractor.layer.width
        let head = ClassifierExport.Head(base: extractor.baseModel, layer: extractor.layer, classes: ["a", "b"],
                                         weights: [Float](repeating: 0, count: 2 * width), bias: [0, 0])
        _ = try ClassifierExport.data(head, forPath: path)
    }

    /// Create ML's automatic split, seeded, class by class; or no split.
    static func split(_ data: LabeledImageDirectory, parameters: ImageClassifierParameters)
        throws -> (training: [LabeledImageDirectory.Example], validation: [LabeledImageDirectory.Example]) {
        guard parameters.validation == .automatic else { return (data.examples, []) }
        let total = data.examples.count
        let fraction = total < 50 ? 0 : total < 200 ? 0.10 : 0.05
        guard fraction > 0 else { return (data.examples, []) }
        var random = SeededGenerator(seed: parameters.seed)
        var training: [LabeledImageDirectory.Example] = [], validation: [LabeledImageDirectory.Example] = []
        for label in data.classes.indices {
            let members = data.examples.filter { $0.label == label }.shuffled(using: &random)
            // Keep at least one training image per class.
            let held = min(Int((Double(members.count) * fraction).rounded()), members.count - 1)
            validation += members.prefix(held)
            training += members.dropFirst(held)
        }
        return (training, validation)
    }

    static func counts(_ labels: [Int], classes: Int) -> [Int] {
        var counts = [Int](repeating: 0, count: classes)
        for label in labels { counts[label] += 1 }
        return counts
    }

    static func predictions(_ model: SoftmaxRegression, _ features: [Double], _ count: Int) -> [Int] {
        let d = model.featureCount
        return (0..<count).map { model.predictedClass(Array(features[$0 * d ..< ($0 + 1) * d])) }
    }

    static func accuracy(_ model: SoftmaxRegression, _ features: [Double], _ labels: [Int]) -> Double {
        let predicted = predictions(model, features, labels.count)
        return Double(zip(predicted, labels).filter { $0 == $1 }.count) / Double(max(labels.count, 1))
    }
}
