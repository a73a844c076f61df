import Foundation

/// Performs requests on one image (Vision's `VNImageRequestHandler`).
///
/// The image is decoded and turned upright once, when the handler is made;
/// each request then crops, scales and normalizes it for its model. A handler
/// is immutable and `Sendable`: several tasks may perform requests on it at once.
public final class ImageRequestHandler: Sendable {
    /// The image, upright (after ``orientation`` was applied).
    public let image: RGBImage
    /// The orientation that was applied: given, or read from the file's EXIF.
    public let orientation: ImageOrientation
    /// The file the image came from, for error messages.
    public let source: String?

    /// Decodes the image file at `path` (JPEG, PNG or PPM).
    ///
    /// - Parameter orientation: how the stored pixels are turned; `nil` reads the
    ///   EXIF Orientation tag (`.up` when there is none).
    /// - Throws: `.io` for a missing or unreadable file, `.invalidImage` for an
    ///   unsupported, truncated or corrupt one; the message names the file.
    ///
    /// - Parameter limits: the largest image accepted (default 100 megapixels),
    ///   checked from the file's header before decoding.
    public convenience init(contentsOf path: String, orientation: ImageOrientation? = nil,
                            limits: ImageDecodingLimits = .default) throws {
        let data = try ImageDecoder.data(contentsOf: path)
        try self.init(data: data, orientation: orientation, source: path, limits: limits)
    }

    /// Decodes the image file at a file URL (Vision's `init(url:orientation:)`);
    /// see the `String` form, `init(contentsOf:orientation:limits:)`.
    ///
    /// - Throws: `.invalidArgument` for a URL that is not a file URL, else as
    ///   the `String` form.
    public convenience init(url: URL, orientation: ImageOrientation? = nil, limits: ImageDecodingLimits = .default) throws {
        guard url.isFileURL else {
            throw FoveaError(.invalidArgument, "only file URLs can be read, not '\(url.absoluteString)'")
        }
        try self.init(contentsOf: url.path, orientation: orientation, limits: limits)
    }

    /// Decodes the image file at a file URL: the same as ``init(url:orientation:limits:)``,
    /// named like ``Model``'s and ``ClassLabels``' URL initializers.
    public convenience init(contentsOf url: URL, orientation: ImageOrientation? = nil, limits: ImageDecodingLimits = .default) throws {
        try self.init(url: url, orientation: orientation, limits: limits)
    }

    /// Decodes an encoded image in memory; `source` names it in error messages.
    public convenience init(data: Data, orientation: ImageOrientation? = nil, source: String? = nil,
                            limits: ImageDecodingLimits = .default) throws {
        let decoded = try ImageDecoder.decode(data: data, fileName: source, limits: limits)
        let applied = orientation ?? EXIFOrientation.read(from: data) ?? .up
        self.init(image: decoded, orientation: applied, source: source)
    }

    /// Takes raw pixels (RGB8, RGBA8, BGRA8 or Gray8).
    ///
    /// - Throws: `.invalidImage` if the buffer's size does not match its
    ///   width, height and bytes per row.
    public convenience init(pixelBuffer: PixelBuffer, orientation: ImageOrientation = .up) throws {
        self.init(image: try RGBImage(pixelBuffer: pixelBuffer), orientation: orientation, source: nil)
    }

    /// Takes a decoded image whose pixels are stored with `orientation`.
    public init(image: RGBImage, orientation: ImageOrientation = .up, source: String? = nil) {
        self.image = image.oriented(orientation)
        self.orientation = orientation
        self.source = source
    }

    /// Performs one request and returns its observations, sorted by confidence.
    /// Sets the request's ``ClassificationRequest/results`` and calls its
    /// completion handler too, if it has one.
    public func perform(_ request: ClassificationRequest) throws -> [ClassificationObservation] {
        try performNow(request)
    }

    private func performNow(_ request: ClassificationRequest) throws -> [ClassificationObservation] {
        let result = Result { try FoveaError.at(.init(file: source)) { try request.observations(for: image) } }
        request.record(result)
        request.completionHandler?(request, result)
        return try result.get()
    }

    /// Performs several requests on the image, in order, and returns each one's
    /// observations. Every request runs (and gets its
    /// ``ClassificationRequest/results`` set and its completion handler called)
    /// even if one fails; then the first error is thrown. As with Vision:
    ///
    /// ```swift
    /// try handler.perform([request])
    /// let observations = request.results ?? []
    /// ```
    public func perform(_ requests: [ClassificationRequest]) throws -> [[ClassificationObservation]] {
        try performNow(requests)
    }

    private func performNow(_ requests: [ClassificationRequest]) throws -> [[ClassificationObservation]] {
        var results: [[ClassificationObservation]] = []
        var firstError: (any Error)?
        for request in requests {
            do {
                results.append(try performNow(request))
            } catch {
                firstError = firstError ?? error
                results.append([])
            }
        }
        if let firstError { throw firstError }
        return results
    }

    /// Performs `request` on the images of several handlers as one batched run
    /// (see ``ClassificationRequest/observations(forBatch:)``) and returns each
    /// image's observations, in order. The request's completion handler is
    /// called once per image; its ``ClassificationRequest/results`` are left as
    /// they were (use the returned observations).
    ///
    /// ```swift
    /// let handlers = try paths.map { try ImageRequestHandler(contentsOf: $0) }
    /// let perImage = try ImageRequestHandler.perform(request, on: handlers)
    /// ```
    ///
    /// - Throws: the first error. A batch that fails as a whole is retried one
    ///   image at a time: every image is classified (and reported to the
    ///   completion handler), then the first image's error is thrown, naming it.
    public static func perform(_ request: ClassificationRequest, on handlers: [ImageRequestHandler]) throws -> [[ClassificationObservation]] {
        let batched = Result { try request.observations(forBatch: handlers.map(\.image)) }
        guard case .success(let observations) = batched else {
            let results = handlers.map { handler in
                let result = Result { try FoveaError.at(.init(file: handler.source)) { try request.observations(for: handler.image) } }
                request.completionHandler?(request, result)
                return result
            }
            return try results.map { try $0.get() }
        }
        for observation in observations { request.completionHandler?(request, .success(observation)) }
        return observations
    }

    /// Performs one request off the caller's actor (on the global concurrent executor).
    @concurrent
    public func perform(_ request: ClassificationRequest) async throws -> [ClassificationObservation] {
        try performNow(request)
    }

    /// Performs several requests off the caller's actor.
    @concurrent
    public func perform(_ requests: [ClassificationRequest]) async throws -> [[ClassificationObservation]] {
        try performNow(requests)
    }
}
