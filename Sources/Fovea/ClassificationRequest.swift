import Foundation

/// Classifies an image with a model (Vision's `VNCoreMLRequest` /
/// `VNClassifyImageRequest`). Make one per model and reuse it: performing it
/// from many tasks at once is safe.
///
/// ```swift
/// let request = try ClassificationRequest(model: model)
/// request.maximumObservations = 5
/// let observations = try await ImageRequestHandler(contentsOf: URL(fileURLWithPath: "cat.jpg")).perform(request)
/// ```
///
/// A request is a class, as Vision's requests are: every reference to it sees
/// the same settings and the same ``results``, which is what lets
/// `try await handler.perform([request])` fill in the caller's `request`. For
/// two different settings, make two requests. A perform reads the settings once,
/// when it starts: changing them from another task meanwhile affects the next
/// perform, not the one under way.
public final class ClassificationRequest: Sendable {
    /// Called by the handler's `perform(_:)` with
    /// the observations or the error, on the thread that performs the request.
    public typealias CompletionHandler = @Sendable (ClassificationRequest, Result<[ClassificationObservation], any Error>) -> Void

    /// The model; its description gives the input size, normalization, crop
    /// fraction and labels.
    public let model: Model

    /// How the image is fitted to the model's input size; `.centerCrop` by default.
    public var imageCropAndScaleOption: ImageCropAndScaleOption {
        get { settings.value.imageCropAndScaleOption }
        set { settings.update { $0.imageCropAndScaleOption = newValue } }
    }

    /// The part of the upright image to classify (Vision's `regionOfInterest`):
    /// normalized, origin at the lower left; the whole image by default. The
    /// crop and scale option applies inside it.
    public var regionOfInterest: CGRect {
        get { settings.value.regionOfInterest }
        set { settings.update { $0.regionOfInterest = newValue } }
    }

    /// At most this many observations (top-k); `nil` returns every class.
    public var maximumObservations: Int? {
        get { settings.value.maximumObservations }
        set { settings.update { $0.maximumObservations = newValue } }
    }

    /// Observations below this confidence are left out (0 keeps all).
    public var minimumConfidence: Float {
        get { settings.value.minimumConfidence }
        set { settings.update { $0.minimumConfidence = newValue } }
    }

    /// Called after each perform.
    public var completionHandler: CompletionHandler? {
        get { settings.value.completionHandler }
        set { settings.update { $0.completionHandler = newValue } }
    }

    /// The observations of the last ``ImageRequestHandler`` perform of this
    /// request, as Vision's `request.results`: `nil` before the first perform
    /// and after one that failed. When several tasks perform the same request
    /// at once, each should use the observations `perform` returns: `results`
    /// holds whichever finished last.
    public var results: [ClassificationObservation]? { latest.value }

    private let input: ImageInputDescription
    private let scoresOutput: String
    private let settings: Locked<Settings>
    private let latest = Locked<[ClassificationObservation]?>(nil)

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
        self.input = image
        self.scoresOutput = output
        self.settings = Locked(Settings(completionHandler: completionHandler))
    }

    /// The request as it is now, for one perform: its settings read once.
    var snapshot: Snapshot {
        Snapshot(model: model, input: input, scoresOutput: scoresOutput, settings: settings.value)
    }

    /// Stores a perform's outcome for ``results``.
    func record(_ result: Result<[ClassificationObservation], any Error>) {
        latest.value = try? result.get()
    }

    /// The model's input size.
    public var inputSize: (width: Int, height: Int) { (input.width, input.height) }

    /// Where each input pixel comes from for an upright image of
    /// `width × height` (see ``ImageCropAndScaleOption/geometry(forImageWidth:height:width:height:cropFraction:)``).
    public func geometry(forImageWidth width: Int, height: Int) throws -> CropAndScaleGeometry {
        try snapshot.geometry(forImageWidth: width, height: height)
    }

    /// The picture the model sees for `image` (already upright): its region of
    /// interest, cropped and scaled to the input size, before normalization.
    public func preparedImage(for image: RGBImage) throws -> RGBImage {
        try snapshot.preparedImage(for: image)
    }

    /// The model's input tensor for an upright image: cropped, scaled and
    /// normalized in one pass (the same values as normalizing ``preparedImage(for:)``).
    public func inputTensor(for image: RGBImage) throws -> Tensor {
        try snapshot.inputTensor(for: image)
    }

    /// Classifies an upright image: crop and scale, normalize, run, rank.
    public func observations(for image: RGBImage) throws -> [ClassificationObservation] {
        try snapshot.observations(for: image)
    }

    /// Classifies several upright images and returns each one's observations,
    /// in order. The images are prepared into one `N×C×H×W` batch and run
    /// together; a model that cannot run the batch (a fixed batch size) runs
    /// them one at a time.
    ///
    /// - Throws: as ``observations(for:)``, for the first image that fails.
    public func observations(forBatch images: [RGBImage]) throws -> [[ClassificationObservation]] {
        try snapshot.observations(forBatch: images)
    }

    /// Classifies a picture already cropped and scaled by ``preparedImage(for:)``.
    public func observations(forPreparedImage prepared: RGBImage) throws -> [ClassificationObservation] {
        try snapshot.observations(forPreparedImage: prepared)
    }

    /// Classifies an already normalized `1×C×H×W` tensor.
    public func observations(forInputTensor tensor: Tensor) throws -> [ClassificationObservation] {
        try snapshot.observations(forInputTensor: tensor, threads: nil)
    }

    /// Ranks raw model scores: softmax unless they are probabilities, sorted
    /// high to low, filtered by ``minimumConfidence``, cut to ``maximumObservations``.
    public func observations(forScores scores: [Float]) -> [ClassificationObservation] {
        snapshot.observations(forScores: scores)
    }
}

extension ClassificationRequest {
    /// What a perform reads from the request.
    struct Settings: Sendable {
        var imageCropAndScaleOption: ImageCropAndScaleOption = .centerCrop
        var regionOfInterest = CGRect(x: 0, y: 0, width: 1, height: 1)
        var maximumObservations: Int?
        var minimumConfidence: Float = 0
        var completionHandler: CompletionHandler?
    }
}
