import Foundation
import Fovea

/// Finds the translation that aligns a targeted image with the handler's image
/// (Vision's `VNTranslationalImageRegistrationRequest`), by phase correlation
/// on a downscaled, windowed luminance image with a sub-pixel peak (see
/// `PhaseCorrelator` in `FoveaFrames`: FFTW underneath).
///
/// ```swift
/// let request = TranslationalImageRegistrationRequest(targetedImage: frame)
/// try await SequenceRequestHandler().perform([request], on: previousFrame)
/// let shift = request.results?.first   // tx, ty, confidence
/// ```
///
/// Both images must have the same size. The result is in
/// ``ImageTranslationAlignmentObservation``'s convention: the shift that moves
/// the targeted image onto the handler's, x right, y up.
///
/// A class, as ``ClassificationRequest`` is: every reference sees the same
/// settings and ``results``.
public final class TranslationalImageRegistrationRequest: ImageRequest {
    /// Called after each perform with the observation or the error.
    public typealias CompletionHandler = @Sendable (TranslationalImageRegistrationRequest, Result<[ImageTranslationAlignmentObservation], any Error>) -> Void

    /// The image to align with the handler's image, upright.
    public let targetedImage: RGBImage
    /// The longer side of the grid the images are analysed on (a 640×480 pair
    /// at the default 320 is analysed at 320×240); larger is slower and no
    /// more accurate on ordinary video.
    public var analysisMaxSide: Int {
        get { settings.value.analysisMaxSide }
        set { settings.update { $0.analysisMaxSide = newValue } }
    }
    /// Called after each perform.
    public var completionHandler: CompletionHandler? {
        get { settings.value.completionHandler }
        set { settings.update { $0.completionHandler = newValue } }
    }

    /// What a perform reads, once, when it starts.
    private struct Settings: Sendable {
        var analysisMaxSide = PhaseCorrelator.defaultMaxSide
        var completionHandler: CompletionHandler?
    }

    private let settings: Locked<Settings>
    private let latest = Locked<[ImageTranslationAlignmentObservation]?>(nil)

    /// The targeted image as pixels already upright.
    public init(targetedImage: RGBImage, completionHandler: CompletionHandler? = nil) {
        self.targetedImage = targetedImage
        settings = Locked(Settings(completionHandler: completionHandler))
    }

    /// The upright image of another handler (decoded and oriented by it).
    ///
    /// - Throws: `.invalidImage` if the handler's pixel data is damaged (a JPEG's
    ///   pixels are decoded on first use).
    public convenience init(targetedImage handler: ImageRequestHandler, completionHandler: CompletionHandler? = nil) throws {
        self.init(targetedImage: try handler.image, completionHandler: completionHandler)
    }

    /// One observation after a successful perform, `nil` before and after a failed one.
    public var results: [ImageTranslationAlignmentObservation]? { latest.value }

    /// The alignment of ``targetedImage`` onto `reference`, computed afresh.
    public func observation(reference: RGBImage) throws -> ImageTranslationAlignmentObservation {
        try observation(reference: reference, spectra: SpectrumCache())
    }

    /// Uses (and fills) `spectra`, so that a frame's spectrum is computed once in a sequence.
    func observation(reference: RGBImage, spectra: SpectrumCache) throws -> ImageTranslationAlignmentObservation {
        guard reference.width == targetedImage.width, reference.height == targetedImage.height else {
            throw FoveaError(.invalidArgument, "image registration needs two images of one size: the reference is \(reference.width)×\(reference.height), the targeted image \(targetedImage.width)×\(targetedImage.height)")
        }
        let (dx, dy, confidence) = try spectra.translation(reference: reference, floating: targetedImage, maxSide: analysisMaxSide)
        // The correlator's y runs down the rows; Vision's runs up.
        return ImageTranslationAlignmentObservation(tx: dx, ty: dy == 0 ? 0 : -dy, confidence: Float(confidence))
    }

    func record(_ result: Result<[ImageTranslationAlignmentObservation], any Error>) {
        latest.value = try? result.get()
        completionHandler?(self, result)
    }
}
