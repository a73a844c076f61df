import Foundation
import Fovea

extension ImageRequestHandler {
    /// Performs requests of any kind on the image, in order: classification,
    /// barcodes, registration (the handler's image is the reference), off the
    /// caller's actor as `perform(_:)` does. The image was decoded and
    /// turned upright once, when the handler was made. Every request runs and
    /// gets its `results` set (and its completion handler called) even if one
    /// fails; then the first error is thrown.
    @concurrent
    public func perform(_ requests: [any ImageRequest]) async throws {
        try Task.checkCancellation()
        try perform(requests, spectra: SpectrumCache())
    }

    /// `perform(_:)` on the calling thread, blocking it.
    public func performAndWait(_ requests: [any ImageRequest]) throws {
        try perform(requests, spectra: SpectrumCache())
    }

    /// The shared body; `spectra` carries registration state between frames.
    func perform(_ requests: [any ImageRequest], spectra: SpectrumCache) throws {
        var firstError: (any Error)?
        let location = FoveaError.Location(file: source)
        for request in requests {
            do {
                switch request {
                case let classify as ClassificationRequest:
                    _ = try performAndWait(classify)
                case let barcodes as DetectBarcodesRequest:
                    let result = Result { try FoveaError.at(location) { try barcodes.observations(for: image) } }
                    barcodes.record(result)
                    _ = try result.get()
                case let registration as TranslationalImageRegistrationRequest:
                    let result = Result { try FoveaError.at(location) { [try registration.observation(reference: image, spectra: spectra)] } }
                    registration.record(result)
                    _ = try result.get()
                default:
                    throw FoveaError(.invalidArgument, "\(type(of: request)) is not a request Fovea can perform")
                }
            } catch {
                firstError = firstError ?? error
            }
        }
        if let firstError { throw firstError }
    }
}
