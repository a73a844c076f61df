import Foundation

/// What a model returns for one input, as Core ML's `prediction(from:)`: every
/// graph output by name and, for a classifier with labels, the most likely
/// label (`classLabel`) and every label's probability (`classLabelProbs`).
///
/// ```swift
/// let prediction = try model.prediction(from: ["data": tensor])
/// print(prediction.classLabel ?? "no labels", prediction.outputs["logits"]?.shape ?? [])
/// ```
public struct Prediction: Sendable, Equatable {
    /// Every graph output by name.
    public var outputs: [String: Tensor]
    /// The label of the most likely class (Core ML's `classLabel`); `nil` when
    /// the model has no class labels or its scores hold more than one row
    /// (a batched input tensor: use ``Model/predictions(fromBatch:)``).
    public var classLabel: String?
    /// Each label's probability (Core ML's `classLabelProbs`): the scores,
    /// through softmax when they are logits (see ``ModelDescription/outputKind``).
    /// A label that names several classes (ImageNet's two `crane`s) holds
    /// their sum. `nil` when ``classLabel`` is.
    public var classLabelProbs: [String: Float]?

    /// A prediction with the given outputs and classifier answer.
    public init(outputs: [String: Tensor], classLabel: String? = nil, classLabelProbs: [String: Float]? = nil) {
        self.outputs = outputs
        self.classLabel = classLabel
        self.classLabelProbs = classLabelProbs
    }
}

extension ModelDescription {
    /// Class probabilities from raw scores: the scores themselves when
    /// ``outputKind`` is `.probabilities`, their softmax for `.logits`, and when
    /// it is `nil`, the scores if they lie in 0…1 and sum to 1, else their softmax.
    public func probabilities(fromScores scores: [Float]) -> [Float] {
        switch outputKind {
        case .probabilities?: return scores
        case .logits?: return softmax(scores)
        case nil:
            let total = scores.reduce(0, +)
            if scores.allSatisfy({ $0 >= 0 && $0 <= 1 }) && abs(total - 1) < 1e-3 { return scores }
            return softmax(scores)
        }
    }
}

extension Model {
    /// Runs the model on one input (one tensor per graph input, by name) and
    /// returns every output, with `classLabel` and `classLabelProbs` when the
    /// model is a classifier with labels: Core ML's `prediction(from:)`.
    ///
    /// - Throws: `FoveaError` for a missing input or one of the wrong type or shape, or a failing step.
    public func prediction(from inputs: [String: Tensor]) throws -> Prediction {
        try prediction(outputs: try predict(inputs))
    }

    /// Runs the model on several inputs and returns one ``Prediction`` each, in
    /// order: Core ML's `predictions(fromBatch:)`.
    ///
    /// When every input of the batch has the same names and shapes with a
    /// leading dimension of 1 (`1×3×224×224`), they are stacked into one
    /// `N×…` run, and each output is split back by its leading dimension. A
    /// model that cannot run the stacked batch (a fixed batch size, an output
    /// that does not keep the batch dimension) runs the inputs one at a time;
    /// so do inputs of different shapes.
    ///
    /// - Throws: as ``prediction(from:)``, for the first input that fails.
    public func predictions(fromBatch batch: [[String: Tensor]]) throws -> [Prediction] {
        if batch.count > 1, let stacked = Model.stacked(batch),
           let outputs = try? predict(stacked), let split = Model.split(outputs, count: batch.count) {
            return try split.map(prediction(outputs:))
        }
        return try batch.map(prediction(from:))
    }

    /// `outputs` with the classifier's answer added, when the model has labels
    /// and its scores are one row of them.
    private func prediction(outputs: [String: Tensor]) throws -> Prediction {
        var prediction = Prediction(outputs: outputs)
        guard let labels = modelDescription.classLabels, let name = modelDescription.scoresOutputName,
              let scores = outputs[name] else { return prediction }
        guard let values = scores.floats else {
            throw FoveaError(.invalidModel, "output '\(name)' is not a float tensor", location: .init(file: path.isEmpty ? nil : path))
        }
        guard values.count == labels.count else { return prediction }
        let probabilities = modelDescription.probabilities(fromScores: values)
        var byLabel: [String: Float] = [:]
        for (index, probability) in probabilities.enumerated() {
            byLabel[labels.names[index], default: 0] += probability
        }
        prediction.classLabel = ClassificationObservation.ranked(probabilities: probabilities, labels: labels, limit: 1).first?.identifier
        prediction.classLabelProbs = byLabel
        return prediction
    }

    /// The inputs stacked along a leading dimension of 1, or `nil` when they
    /// do not all have the same names, types and `1×…` shapes.
    static func stacked(_ batch: [[String: Tensor]]) -> [String: Tensor]? {
        guard let first = batch.first, batch.allSatisfy({ $0.count == first.count }) else { return nil }
        var stacked: [String: Tensor] = [:]
        for name in first.keys {
            let parts = batch.compactMap { $0[name] }
            guard parts.count == batch.count, let joined = Tensor.stacked(parts) else { return nil }
            stacked[name] = joined
        }
        return stacked
    }

    /// Each output cut into `count` rows along its leading dimension, or `nil`
    /// when an output's leading dimension is not `count`.
    static func split(_ outputs: [String: Tensor], count: Int) -> [[String: Tensor]]? {
        var rows = [[String: Tensor]](repeating: [:], count: count)
        for (name, tensor) in outputs {
            guard tensor.rank >= 1, tensor.shape[0] == count else { return nil }
            let shape = [1] + tensor.shape.dropFirst()
            let size = shape.elementCount
            for row in 0..<count {
                let range = row * size ..< (row + 1) * size
                let storage: Tensor.Storage
                switch tensor.storage {
                case .float32(let values): storage = .float32(Array(values[range]))
                case .int64(let values): storage = .int64(Array(values[range]))
                case .bool(let values): storage = .bool(Array(values[range]))
                case .uint8(let values): storage = .uint8(Array(values[range]))
                case .int8(let values): storage = .int8(Array(values[range]))
                case .int32(let values): storage = .int32(Array(values[range]))
                }
                guard let part = try? Tensor(shape: shape, storage: storage) else { return nil }
                rows[row][name] = part
            }
        }
        return rows
    }
}

extension Tensor {
    /// `N×…` from N tensors of one type and one `1×…` shape, or `nil` when
    /// they differ (or there are none).
    static func stacked(_ parts: [Tensor]) -> Tensor? {
        guard let first = parts.first, first.rank >= 1, first.shape[0] == 1,
              parts.allSatisfy({ $0.shape == first.shape }) else { return nil }
        let storage: Tensor.Storage
        switch first.storage {
        case .float32:
            guard parts.allSatisfy({ $0.floats != nil }) else { return nil }
            storage = .float32(parts.flatMap { $0.floats ?? [] })
        case .int64:
            guard parts.allSatisfy({ $0.int64s != nil }) else { return nil }
            storage = .int64(parts.flatMap { $0.int64s ?? [] })
        case .bool:
            guard parts.allSatisfy({ $0.bools != nil }) else { return nil }
            storage = .bool(parts.flatMap { $0.bools ?? [] })
        case .uint8:
            guard parts.allSatisfy({ $0.uint8s != nil }) else { return nil }
            storage = .uint8(parts.flatMap { $0.uint8s ?? [] })
        case .int8:
            guard parts.allSatisfy({ $0.int8s != nil }) else { return nil }
            storage = .int8(parts.flatMap { $0.int8s ?? [] })
        case .int32:
            guard parts.allSatisfy({ $0.int32s != nil }) else { return nil }
            storage = .int32(parts.flatMap { $0.int32s ?? [] })
        }
        return try? Tensor(shape: [parts.count] + first.shape.dropFirst(), storage: storage)
    }
}
