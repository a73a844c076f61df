import Foundation

/// Classifies an image with a model (Vision's `VNCoreMLRequest` /
/// `VNClassifyImageRequest`). Make one per model and reuse it: it is a small
/// `Sendable` value, and performing it from many tasks at once is safe.
///
/// ```swift
/// var request = try ClassificationRequest(model: model)
/// request.maximumObservations = 5
/// let observations = try ImageRequestHandler(contentsOf: "cat.jpg").perform(request)
/// ```
public struct ClassificationRequest: Sendable {
    /// Called by ``ImageRequestHandler/perform(_:)-(ClassificationRequest)`` with
    /// the observations or the error, on the thread that performs the request.
    public typealias CompletionHandler = @Sendable (ClassificationRequest, Result<[ClassificationObservation], any Error>) -> Void

    /// The model; its description gives the input size, normalization, crop
    /// fraction and labels.
    public let model: Model
    /// How the image is fitted to the model's input size; `.centerCrop` by default.
    public var imageCropAndScaleOption: ImageCropAndScaleOption = .centerCrop
    /// The part of the upright image to classify (Vision's `regionOfInterest`):
    /// normalized, origin at the lower left; the whole image by default. The
    /// crop and scale option applies inside it.
    public var regionOfInterest = CGRect(x: 0, y: 0, width: 1, height: 1)
    /// At most this many observations (top-k); `nil` returns every class.
    public var maximumObservations: Int?
    /// Observations below this confidence are left out (0 keeps all).
    public var minimumConfidence: Float = 0
    /// Called after each perform.
    public var completionHandler: CompletionHandler?

    private let image: ImageInputDescription
    private let scoresOutput: String
    private let latest = ResultsSlot<ClassificationObservation>()

    /// The observations of the last ``ImageRequestHandler`` perform of this
    /// request, as Vision's `request.results`: `nil` before the first perform
    /// and after one that failed.
    ///
    /// Copies of a request share its results (it is a value holding a
    /// reference, so that `try handler.perform([request])` can fill in the
    /// caller's `request`). When several tasks perform the same request at
    /// once, each should use the observations `perform` returns: `results`
    /// holds whichever finished last.
    public var results: [ClassificationObservation]? { latest.value }

    /// Stores a perform's outcome for ``results``.
    func record(_ result: Result<[ClassificationObservation], any Error>) {
        latest.value = try? result.get()
    }

    /// Throws `.invalidArgument` if the model has no image input (see
    /// ``ModelDescription/imageInput``) or no outputs.
    public init(model: Model, completionHandler: CompletionHandler? = nil) throws {
        let location = FoveaError.Location(file: model.path.isEmpty ? nil : model.path)
        guard let image = model.modelDescription.imageInput else {
            let shapes = model.graph.inputs.map { "\($0.name) \($0.shapeDescription)" }.joined(separator: ", ")
            throw FoveaError(.invalidArgument, "the model has no image input (inputs: \(shapes)); an image classifier needs N×3×H×W, or a description that names the image input", location: location)
        }
        guard let output = model.modelDescription.scoresOutputName else {
            throw FoveaError(.invalidArgument, "the model has no outputs", location: location)
        }
        self.model = model
        self.image = image
        self.scoresOutput = output
        self.completionHandler = completionHandler
    }

    /// The model's input size.
    public var inputSize: (width: Int, height: Int) { (image.width, image.height) }

    /// The picture the model sees for `image` (already upright): its region of
    /// interest, cropped and scaled to the input size, before normalization.
    public func preparedImage(for image: RGBImage) throws -> RGBImage {
        try imageCropAndScaleOption.apply(to: try regionOfInterest.crop(image), width: self.image.width, height: self.image.height,
                                          cropFraction: self.image.cropFraction)
    }

    /// The model's input tensor for an upright image: cropped, scaled and normalized.
    public func inputTensor(for image: RGBImage) throws -> Tensor {
        try self.image.normalization.tensor(from: [try preparedImage(for: image)])
    }

    /// Classifies an upright image: crop and scale, normalize, run, rank.
    public func observations(for image: RGBImage) throws -> [ClassificationObservation] {
        try observations(forPreparedImage: try preparedImage(for: image))
    }

    /// Classifies several upright images and returns each one's observations,
    /// in order. The images are prepared one by one and run together as one
    /// `N×C×H×W` batch; a model that cannot run the batch (a fixed batch
    /// size) runs them one at a time.
    ///
    /// - Throws: as ``observations(for:)``, for the first image that fails.
    public func observations(forBatch images: [RGBImage]) throws -> [[ClassificationObservation]] {
        let prepared = try images.map(preparedImage(for:))
        guard prepared.count > 1 else { return try prepared.map(observations(forPreparedImage:)) }
        let tensor = try image.normalization.tensor(from: prepared)
        if let outputs = try? model.predict([image.name: tensor]), let scores = outputs[scoresOutput],
           scores.shape.first == prepared.count, let values = scores.floats {
            let size = values.count / prepared.count
            return (0..<prepared.count).map { row in observations(forScores: Array(values[row * size ..< (row + 1) * size])) }
        }
        return try prepared.map(observations(forPreparedImage:))
    }

    /// Classifies a picture already cropped and scaled by ``preparedImage(for:)``.
    public func observations(forPreparedImage prepared: RGBImage) throws -> [ClassificationObservation] {
        try observations(forInputTensor: try image.normalization.tensor(from: [prepared]))
    }

    /// Classifies an already normalized `1×C×H×W` tensor.
    public func observations(forInputTensor tensor: Tensor) throws -> [ClassificationObservation] {
        let outputs = try model.predict([image.name: tensor])
        guard let scores = outputs[scoresOutput]?.floats else {
            throw FoveaError(.invalidModel, "output '\(scoresOutput)' is not a float tensor", location: .init(file: model.path.isEmpty ? nil : model.path))
        }
        return observations(forScores: scores)
    }

    /// Ranks raw model scores: softmax unless they are probabilities, sorted
    /// high to low, filtered by ``minimumConfidence``, cut to ``maximumObservations``.
    public func observations(forScores scores: [Float]) -> [ClassificationObservation] {
        let probabilities = model.modelDescription.probabilities(fromScores: scores)
        let ranked = ClassificationObservation.ranked(probabilities: probabilities, labels: model.modelDescription.classLabels,
                                                      limit: maximumObservations.map { Swift.max(0, $0) })
        return ranked.filter { $0.confidence >= minimumConfidence }
    }
}
