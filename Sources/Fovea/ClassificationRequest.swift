import Foundation

/// Classifies an image with a model (Vision's `VNCoreMLRequest` /
/// `VNClassifyImageRequest`). Make one per model and reuse it: it is a small
/// `Sendable` value, and performing it from many tasks at once is safe.
///
/// ```swift
/// var request = try ClassificationRequest(model: model)
/// request.maximumObservations = 5
/// let observations = try await ImageRequestHandler(contentsOf: URL(fileURLWithPath: "cat.jpg")).perform(request)
/// ```
public struct ClassificationRequest: Sendable {
    /// Called by the handler's `perform(_:)` with
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
    /// reference, so that `try await handler.perform([request])` can fill in the
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

    /// Where each input pixel comes from for an upright image of
    /// `width × height` (see ``ImageCropAndScaleOption/geometry(forImageWidth:height:width:height:cropFraction:)``).
    public func geometry(forImageWidth width: Int, height: Int) throws -> CropAndScaleGeometry {
        try imageCropAndScaleOption.geometry(forImageWidth: width, height: height, width: image.width, height: image.height,
                                             cropFraction: image.cropFraction)
    }

    /// Threads for preparing pictures: the model's (``ModelConfiguration/effectiveThreads``).
    var preparationThreads: Int { model.configuration.effectiveThreads }

    /// The picture the model sees for `image` (already upright): its region of
    /// interest, cropped and scaled to the input size, before normalization.
    public func preparedImage(for image: RGBImage) throws -> RGBImage {
        let region = try regionOfInterest.crop(image)
        return try region.rendered(geometry(forImageWidth: region.width, height: region.height), threads: preparationThreads)
    }

    /// The model's input tensor for an upright image: cropped, scaled and
    /// normalized in one pass (the same values as normalizing ``preparedImage(for:)``).
    public func inputTensor(for image: RGBImage) throws -> Tensor {
        let region = try regionOfInterest.crop(image)
        return try inputTensor(for: region, geometry: geometry(forImageWidth: region.width, height: region.height),
                               threads: preparationThreads)
    }

    /// The input tensor for `image` fitted by `geometry` (this request's
    /// geometry for the full picture, or that geometry reduced for a reduced
    /// decode of it), with rows split across `threads`.
    func inputTensor(for image: RGBImage, geometry: CropAndScaleGeometry, threads: Int) throws -> Tensor {
        try self.image.normalization.tensor(from: image, geometry: geometry, threads: threads)
    }

    /// Classifies an upright image: crop and scale, normalize, run, rank.
    public func observations(for image: RGBImage) throws -> [ClassificationObservation] {
        try observations(forInputTensor: try inputTensor(for: image))
    }

    /// Classifies several upright images and returns each one's observations,
    /// in order. The images are prepared into one `N×C×H×W` batch and run
    /// together; a model that cannot run the batch (a fixed batch size) runs
    /// them one at a time.
    ///
    /// - Throws: as ``observations(for:)``, for the first image that fails.
    public func observations(forBatch images: [RGBImage]) throws -> [[ClassificationObservation]] {
        guard images.count > 1 else { return try images.map(observations(for:)) }
        let regions = try images.map { try regionOfInterest.crop($0) }
        let geometries = try regions.map { try geometry(forImageWidth: $0.width, height: $0.height) }
        let tensor = try image.normalization.tensor(from: regions, geometries: geometries, threads: preparationThreads)
        return try observations(forBatchTensor: tensor) ?? images.map(observations(for:))
    }

    /// The observations of each image of an `N×C×H×W` input, run as one
    /// batch, or `nil` when the model cannot run it (a fixed batch size).
    /// `threads`: as in ``Model/predict(_:threads:)``.
    func observations(forBatchTensor tensor: Tensor, threads: Int? = nil) throws -> [[ClassificationObservation]]? {
        let count = tensor.shape.first ?? 0
        guard let outputs = try? model.predict([image.name: tensor], threads: threads), let scores = outputs[scoresOutput],
              scores.shape.first == count, count > 0, let values = scores.floats else { return nil }
        let size = values.count / count
        return (0..<count).map { row in observations(forScores: Array(values[row * size ..< (row + 1) * size])) }
    }

    /// Classifies a picture already cropped and scaled by ``preparedImage(for:)``.
    public func observations(forPreparedImage prepared: RGBImage) throws -> [ClassificationObservation] {
        try observations(forInputTensor: try image.normalization.tensor(from: [prepared]))
    }

    /// Classifies an already normalized `1×C×H×W` tensor.
    public func observations(forInputTensor tensor: Tensor) throws -> [ClassificationObservation] {
        try observations(forInputTensor: tensor, threads: nil)
    }

    /// ``observations(forInputTensor:)`` on `threads` threads, as in ``Model/predict(_:threads:)``.
    func observations(forInputTensor tensor: Tensor, threads: Int?) throws -> [ClassificationObservation] {
        let outputs = try model.predict([image.name: tensor], threads: threads)
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
