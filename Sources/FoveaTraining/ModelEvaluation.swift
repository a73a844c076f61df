import Foundation
@_spi(Internals) import Fovea
import FoveaCore

extension ClassificationMetrics {
    /// Classifies every image of a labelled directory with `model` (as
    /// `fovea classify` would: the model's own preprocessing and labels) and
    /// counts right and wrong answers. The model must name its classes; each
    /// folder name must be one of them. Classes the model knows but the
    /// directory lacks keep their rows (empty).
    ///
    /// - Returns: the metrics, and the images that could not be read (skipped).
    /// - Throws: `.invalidArgument` for a model without labels, a folder that
    ///   is not a class of the model, or no readable image at all.
    public static func evaluating(_ model: Model, on directory: String) throws -> (metrics: ClassificationMetrics, unreadable: [(path: String, message: String)]) {
        guard let labels = model.modelDescription.classLabels?.names else {
            throw FoveaError(.invalidArgument, "the model has no class labels to compare with folder names", location: .init(file: model.path))
        }
        let data = try LabeledImageDirectory(contentsOf: directory, minimumImagesPerClass: 1)
        let index = Dictionary(labels.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let truthOfClass = try data.classes.map { name in
            guard let i = index[name] else {
                throw FoveaError(.invalidArgument, "folder '\(SafeText.escaped(name))' is not a class of the model (\(labels.prefix(10).joined(separator: ", "))\(labels.count > 10 ? ", ..." : ""))", location: .init(file: directory))
            }
            return i
        }
        let request = try ClassificationRequest(model: model)
        request.maximumObservations = 1
        var truth: [Int] = [], predicted: [Int] = [], unreadable: [(String, String)] = []
        for example in data.examples {
            do {
                let top = try ImageRequestHandler(contentsOfFile: example.path).performAndWait(request).first
                guard let label = top.flatMap({ index[$0.identifier] }) else { continue }
                truth.append(truthOfClass[example.label])
                predicted.append(label)
            } catch {
                unreadable.append((example.path, "\(error)"))
            }
        }
        guard !truth.isEmpty else {
            throw FoveaError(.invalidArgument, "no image could be read (\(unreadable.count) unreadable)", location: .init(file: directory))
        }
        return (ClassificationMetrics(classes: labels, truth: truth, predicted: predicted), unreadable)
    }
}
