import Foundation
import Fovea

/// The registration state a ``SequenceRequestHandler`` keeps between frames:
/// one `PhaseCorrelator` (FFTW plans and buffers) and the spectra of the last
/// two images, so that in a frame-by-frame loop, where each frame is first
/// the targeted image and then the reference, each is transformed once.
final class SpectrumCache: @unchecked Sendable {
    // @unchecked: every access to the stored state holds `lock` (the
    // correlator is not thread-safe; the lock serializes its use).
    private let lock = NSLock()
    private var correlator: PhaseCorrelator?
    private var recent: [(image: RGBImage, spectrum: RegistrationSpectrum)] = []

    /// See `PhaseCorrelator.translation(reference:floating:)`: x right, y down, in pixels.
    func translation(reference: RGBImage, floating: RGBImage, maxSide: Int) throws -> (dx: Double, dy: Double, confidence: Double) {
        try lock.withLock {
            let correlator = try self.correlator(width: reference.width, height: reference.height, maxSide: maxSide)
            let a = try spectrum(of: reference, correlator)
            let b = try spectrum(of: floating, correlator)
            return try correlator.refinedTranslation(reference: reference, floating: floating, referenceSpectrum: a, floatingSpectrum: b)
        }
    }

    /// The correlator for this size, made anew (forgetting the spectra) when the size changes.
    private func correlator(width: Int, height: Int, maxSide: Int) throws -> PhaseCorrelator {
        if let current = correlator, current.frameWidth == width, current.frameHeight == height, current.maxSide == maxSide {
            return current
        }
        let made = try PhaseCorrelator(width: width, height: height, maxSide: maxSide)
        correlator = made
        recent = []
        return made
    }

    private func spectrum(of image: RGBImage, _ correlator: PhaseCorrelator) throws -> RegistrationSpectrum {
        if let known = recent.first(where: { $0.image == image }) { return known.spectrum }
        let spectrum = try correlator.spectrum(of: image)
        recent.append((image, spectrum))
        if recent.count > 2 { recent.removeFirst() }
        return spectrum
    }
}
