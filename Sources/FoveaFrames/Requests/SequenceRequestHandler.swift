import Foundation
import Fovea

/// Performs requests on a sequence of frames (Vision's `VNSequenceRequestHandler`),
/// keeping state from one frame to the next: the registration's FFT plans and
/// the last frames' spectra, so that in the usual loop, registering each frame
/// against the one before, every frame is transformed once.
///
/// ```swift
/// let sequence = SequenceRequestHandler()
/// var previous: RGBImage?
/// for frame in frames {
///     defer { previous = frame }
///     guard let previous else { continue }
///     let registration = TranslationalImageRegistrationRequest(targetedImage: frame)
///     try await sequence.perform([registration], on: previous)
///     print(registration.results?.first?.tx ?? 0)
/// }
/// ```
///
/// A handler is `Sendable`; frames performed from several tasks at once are
/// registered one at a time.
public final class SequenceRequestHandler: Sendable {
    private let spectra = SpectrumCache()

    /// Creates a handler with no frames seen yet.
    public init() {}

    /// Performs `requests` on a frame whose pixels are stored with `orientation`,
    /// off the caller's actor.
    @concurrent
    public func perform(_ requests: [any ImageRequest], on image: RGBImage, orientation: ImageOrientation = .up) async throws {
        try performAndWait(requests, on: image, orientation: orientation)
    }

    /// Performs `requests` on a frame of raw pixels (a camera buffer), off the caller's actor.
    @concurrent
    public func perform(_ requests: [any ImageRequest], on pixelBuffer: PixelBuffer, orientation: ImageOrientation = .up) async throws {
        try performAndWait(requests, on: pixelBuffer, orientation: orientation)
    }

    /// `perform(_:on:orientation:)` on the calling thread, blocking it.
    public func performAndWait(_ requests: [any ImageRequest], on image: RGBImage, orientation: ImageOrientation = .up) throws {
        try ImageRequestHandler(image: image, orientation: orientation).perform(requests, spectra: spectra)
    }

    /// `perform(_:on:orientation:)` on the calling thread, blocking it.
    public func performAndWait(_ requests: [any ImageRequest], on pixelBuffer: PixelBuffer, orientation: ImageOrientation = .up) throws {
        try ImageRequestHandler(pixelBuffer: pixelBuffer, orientation: orientation).perform(requests, spectra: spectra)
    }
}
