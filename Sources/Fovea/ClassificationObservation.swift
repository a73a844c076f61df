/// One class a classifier saw in an image, with its confidence.
public struct ClassificationObservation: Sendable, Equatable, Codable {
    /// The class label (or `class N` when the model has no labels).
    public var identifier: String
    /// Probability in `0 ... 1`.
    public var confidence: Float

    /// Creates an observation of class `identifier` with `confidence` in `0 ... 1`.
    public init(identifier: String, confidence: Float) {
        self.identifier = identifier
        self.confidence = confidence
    }
}

extension ClassificationObservation {
    /// Observations for a vector of class probabilities, sorted by confidence
    /// from high to low (ties keep class order), at most `limit` of them.
    public static func ranked(probabilities: [Float], labels: ClassLabels?, limit: Int? = nil) -> [ClassificationObservation] {
        let order = probabilities.indices.sorted { a, b in
            probabilities[a] != probabilities[b] ? probabilities[a] > probabilities[b] : a < b
        }
        return order.prefix(limit ?? order.count).map { index in
            ClassificationObservation(identifier: labels?.label(at: index) ?? "class \(index)", confidence: probabilities[index])
        }
    }
}
