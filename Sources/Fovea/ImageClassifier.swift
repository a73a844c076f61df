/// Classifies photos with an image model: decode, resize and centre-crop to the
/// model's input size, normalize, run, and rank the classes.
///
/// This is the ImageNet evaluation recipe: the shorter side is scaled to
/// `size / cropFraction` (256 for a 224 input) with an antialiasing bilinear
/// filter, then the centre `size × size` is cropped.
public struct ImageClassifier: Sendable {
    public let model: Model
    public var labels: ClassLabels?
    public var normalization: PixelNormalization
    /// The fraction of the resized image the crop keeps (0.875 = 224 of 256).
    public var cropFraction: Double

    /// - Throws: `.invalidArgument` if the model's first input is not an
    ///   `N×3×H×W` image, or the labels do not match the model's class count.
    public init(model: Model, labels: ClassLabels? = nil, normalization: PixelNormalization = .imageNet, cropFraction: Double = 0.875) throws {
        self.model = model
        self.labels = labels
        self.normalization = normalization
        self.cropFraction = cropFraction
        guard cropFraction > 0, cropFraction <= 1 else {
            throw FoveaError(.invalidArgument, "crop fraction \(cropFraction) must be in (0, 1]")
        }
        _ = try imageSize()
        if let labels, let classes = try classCount(), labels.count != classes {
            throw FoveaError(.invalidArgument, "the labels file has \(labels.count) labels but the model has \(classes) classes")
        }
    }

    /// The model's input image size (width, height).
    public func imageSize() throws -> (width: Int, height: Int) {
        guard let input = model.primaryInput, let dims = input.dimensions, dims.count == 4,
              case .known(let channels) = dims[1], channels == 3,
              case .known(let height) = dims[2], case .known(let width) = dims[3] else {
            throw FoveaError(.invalidArgument, "the model's first input is \(model.primaryInput?.shapeDescription ?? "missing"); an image classifier needs N×3×H×W", location: .init(file: model.path))
        }
        return (width, height)
    }

    /// The number of classes of the model's first output, when its shape is declared.
    public func classCount() throws -> Int? {
        let types = try model.plan().valueTypes
        guard let output = model.graph.outputs.first, let shape = types[output.name]?.shape else { return nil }
        return shape.last
    }

    /// The picture the model sees for `image`: resized and centre-cropped, before normalization.
    public func preparedImage(_ image: RGBImage) throws -> RGBImage {
        let size = try imageSize()
        let shorter = Int((Double(Swift.min(size.width, size.height)) / cropFraction).rounded())
        return try image.resizedShorterSide(to: shorter).centerCropped(width: size.width, height: size.height)
    }

    /// Classifies the image file at `path` (JPEG, PNG or PPM).
    public func classify(imageAt path: String, maximumObservations: Int? = nil) throws -> [ClassificationObservation] {
        try classify(try ImageDecoder.decode(contentsOf: path), maximumObservations: maximumObservations)
    }

    /// Classifies a decoded image.
    public func classify(_ image: RGBImage, maximumObservations: Int? = nil) throws -> [ClassificationObservation] {
        let prepared = try preparedImage(image)
        return try classify(preparedTensor: try normalization.tensor(from: [prepared]), maximumObservations: maximumObservations)
    }

    /// Classifies an already preprocessed `1×3×H×W` tensor.
    public func classify(preparedTensor tensor: Tensor, maximumObservations: Int? = nil) throws -> [ClassificationObservation] {
        guard let input = model.primaryInput, let output = model.graph.outputs.first else {
            throw FoveaError(.invalidModel, "the model has no inputs or outputs", location: .init(file: model.path))
        }
        let outputs = try model.predict([input.name: tensor])
        guard let scores = outputs[output.name]?.floats else {
            throw FoveaError(.invalidModel, "output '\(output.name)' is not a float tensor", location: .init(file: model.path))
        }
        return ClassificationObservation.ranked(probabilities: probabilities(from: scores), labels: labels, limit: maximumObservations)
    }

    /// The model's scores as probabilities: softmax unless the model already
    /// outputs probabilities (its last node is a Softmax, or the scores are in
    /// 0...1 and sum to 1).
    func probabilities(from scores: [Float]) -> [Float] {
        guard let outputName = model.graph.outputs.first?.name else { return softmax(scores) }
        if let producer = model.graph.nodes.last(where: { $0.outputs.contains(outputName) }) {
            if case .softmax = producer.op { return scores }
        }
        let total = scores.reduce(0, +)
        if scores.allSatisfy({ $0 >= 0 && $0 <= 1 }) && abs(total - 1) < 1e-3 { return scores }
        return softmax(scores)
    }
}
