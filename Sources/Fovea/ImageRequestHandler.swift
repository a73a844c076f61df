import Foundation
import FoveaImage

/// Performs requests on one image (Vision's `VNImageRequestHandler`).
///
/// A JPEG is read when the handler is made (format, header, size limit, EXIF
/// orientation) but its pixels are decoded when a request needs them, and only
/// as many as it needs: libjpeg-turbo decodes at 1/2, 1/4 or 1/8 of the stored
/// size in the DCT, and a request takes the smallest of these that still gives
/// each pixel of the model's input at least one source pixel along both axes
/// (see ``picture(for:)``).
/// A 4000×3000 photo for a 224×224 model is decoded at 500×375. The reduced
/// picture is then scaled with the same antialiased filter, so the input stays
/// close to the exact crop (the tests bound the difference) and the top-5 of
/// the shared photos is unchanged. ``image`` is always the full picture.
///
/// Colours are matched to sRGB from the file's embedded profile when it is
/// decoded (`ColorMatching`, before any crop or scaling).
///
/// PNG, HEIC, AVIF, WebP, PPM and pixel buffers are decoded (or taken) in full at once. Each
/// request then crops, scales and normalizes the upright picture for its model.
/// A handler is `Sendable`: several tasks may perform requests on it at once.
public final class ImageRequestHandler: Sendable {
    /// The orientation that was applied: given, or read from the file's EXIF.
    public let orientation: ImageOrientation
    /// The file the image came from, for error messages.
    public let source: String?

    /// The encoded file, for images decoded on demand; `nil` for pixels given in memory.
    private let encoded: EncodedImage?
    /// Upright pictures decoded so far, by reduction (1 = full size).
    private let pictures: DecodedPictures

    /// The image, upright (after ``orientation`` was applied), at full size.
    /// For a JPEG it is decoded on first use (requests use a reduced decode
    /// when that is enough, and do not need it).
    ///
    /// - Throws: `.invalidImage`, naming the file, for corrupt pixel data.
    public var image: RGBImage {
        get throws { try picture(reducedBy: 1) }
    }

    /// Reads the image file at `path` (JPEG, PNG, HEIC/HEIF, AVIF, WebP or PPM).
    ///
    /// - Parameters:
    ///   - path: the image file.
    ///   - orientation: how the stored pixels are turned; `nil` reads the EXIF
    ///     Orientation tag (`.up` when there is none; a HEIC or AVIF is turned
    ///     by its container while decoding, and its EXIF is not read).
    ///   - limits: the largest image accepted (default 100 megapixels), checked
    ///     from the file's header before decoding.
    ///   - colorMatching: whether colours are matched from the file's
    ///     embedded profile to sRGB (default `.auto`; `.off` keeps the stored values).
    /// - Throws: `.io` for a missing or unreadable file, `.invalidImage` for an
    ///   unsupported file or a damaged header (a JPEG's damaged pixel data is
    ///   found when it is decoded, by `perform(_:)` or ``image``); the message
    ///   names the file.
    public convenience init(contentsOfFile path: String, orientation: ImageOrientation? = nil,
                            limits: ImageDecodingLimits = .default, colorMatching: ColorMatching = .auto) throws {
        let data = try ImageDecoder.data(contentsOf: path)
        try self.init(data: data, orientation: orientation, source: path, limits: limits, colorMatching: colorMatching)
    }

    /// Reads the image file at a file URL (Vision's `init(url:orientation:)`);
    /// see the path form, ``init(contentsOfFile:orientation:limits:colorMatching:)``.
    ///
    /// - Throws: `.invalidArgument` for a URL that is not a file URL, else as
    ///   the `String` form.
    public convenience init(contentsOf url: URL, orientation: ImageOrientation? = nil, limits: ImageDecodingLimits = .default,
                            colorMatching: ColorMatching = .auto) throws {
        guard url.isFileURL else {
            throw FoveaError(.invalidArgument, "only file URLs can be read, not '\(url.absoluteString)'")
        }
        try self.init(contentsOfFile: url.path, orientation: orientation, limits: limits, colorMatching: colorMatching)
    }

    /// Renamed ``init(contentsOfFile:orientation:limits:colorMatching:)`` (Foundation's
    /// spelling for a path); unavailable so that the compiler names the new spelling. Removed at 1.0.
    @available(*, unavailable, renamed: "init(contentsOfFile:orientation:limits:colorMatching:)")
    public convenience init(contentsOf path: String, orientation: ImageOrientation? = nil,
                            limits: ImageDecodingLimits = .default, colorMatching: ColorMatching = .auto) throws {
        try self.init(contentsOfFile: path, orientation: orientation, limits: limits, colorMatching: colorMatching)
    }

    /// Reads an encoded image in memory; `source` names it in error messages.
    public init(data: Data, orientation: ImageOrientation? = nil, source: String? = nil,
                limits: ImageDecodingLimits = .default, colorMatching: ColorMatching = .auto) throws {
        let encoded = try EncodedImage(data: data, fileName: source, limits: limits, colorMatching: colorMatching)
        self.orientation = orientation ?? EXIFOrientation.read(from: data) ?? .up
        self.source = source
        self.encoded = encoded
        self.pictures = DecodedPictures()
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
        self.orientation = orientation
        self.source = source
        self.encoded = nil
        self.pictures = DecodedPictures(full: image.oriented(orientation))
    }

    /// The upright picture `request` reads and where its input pixels come
    /// from: for a JPEG, decoded at the smallest reduction that still keeps the
    /// request's crop at full resolution (see the type's discussion), with the
    /// request's geometry mapped onto it; otherwise ``image`` (cut to the
    /// request's region of interest) and the geometry.
    ///
    /// - Throws: `.invalidImage`, naming the file, for corrupt pixel data.
    public func picture(for request: ClassificationRequest) throws -> (picture: RGBImage, geometry: CropAndScaleGeometry) {
        try picture(for: request.snapshot)
    }

    /// ``picture(for:)`` for one perform's settings.
    private func picture(for request: ClassificationRequest.Snapshot) throws -> (picture: RGBImage, geometry: CropAndScaleGeometry) {
        try FoveaError.at(.init(file: source)) {
            // A region of interest is cut from the full picture: no reduced decode.
            guard let encoded, encoded.canDecodeReduced, pictures.cached(reducedBy: 1) == nil,
                  request.regionOfInterest.isWholeImage else {
                let region = try request.regionOfInterest.crop(try image)
                return (region, try request.geometry(forImageWidth: region.width, height: region.height))
            }
            let swaps = orientation.swapsWidthAndHeight
            let geometry = try request.geometry(forImageWidth: swaps ? encoded.height : encoded.width,
                                                height: swaps ? encoded.width : encoded.height)
            let reduction = encoded.reduction { width, height in
                geometry.keepsFullResolution(forImageWidth: swaps ? height : width, height: swaps ? width : height)
            }
            let picture = try picture(reducedBy: reduction)
            return (picture, reduction == 1 ? geometry : geometry.reduced(by: reduction, imageWidth: picture.width, imageHeight: picture.height))
        }
    }

    /// The picture `request`'s model sees: ``picture(for:)`` cropped and scaled, before normalization.
    public func preparedImage(for request: ClassificationRequest) throws -> RGBImage {
        let request = request.snapshot
        let (picture, geometry) = try picture(for: request)
        return try FoveaError.at(.init(file: source)) { try picture.rendered(geometry, threads: request.preparationThreads) }
    }

    /// The model's input tensor for `request`: ``picture(for:)`` cropped,
    /// scaled and normalized in one pass.
    public func inputTensor(for request: ClassificationRequest) throws -> Tensor {
        let request = request.snapshot
        return try inputTensor(for: request, threads: request.preparationThreads)
    }

    /// ``inputTensor(for:)`` for one perform's settings, with rows split across `threads`.
    func inputTensor(for request: ClassificationRequest.Snapshot, threads: Int) throws -> Tensor {
        let (picture, geometry) = try picture(for: request)
        return try FoveaError.at(.init(file: source)) { try request.inputTensor(for: picture, geometry: geometry, threads: threads) }
    }

    /// The upright picture decoded at 1/`reduction`, from the cache or decoded now.
    private func picture(reducedBy reduction: Int) throws -> RGBImage {
        if let cached = pictures.cached(reducedBy: reduction) { return cached }
        guard let encoded else {
            throw FoveaError(.invalidArgument, "this handler holds no encoded image to decode")
        }
        let upright = try encoded.decoded(reducedBy: reduction).oriented(orientation)
        pictures.store(upright, reducedBy: reduction)
        return upright
    }

    /// Performs one request and returns its observations, sorted by confidence:
    /// decodes what the request needs, prepares the model's input and runs the
    /// model. Sets the request's ``ClassificationRequest/results`` and calls its
    /// completion handler too, if it has one.
    ///
    /// This is the one `perform`, and it is asynchronous wherever it is called,
    /// top-level code included: the work runs on the global concurrent
    /// executor, never on the caller's actor (the main actor stays free). The
    /// model's intra-op threads come from one process-wide pool (see
    /// ``ModelConfiguration/threads``), so many tasks performing at once share
    /// the machine's cores instead of each taking all of them. Cancelling the
    /// task stops the run before its next layer and throws `CancellationError`.
    /// `performAndWait(_:)` is the same work on the calling thread.
    @concurrent
    public func perform(_ request: ClassificationRequest) async throws -> [ClassificationObservation] {
        try Task.checkCancellation()
        return try performNow(request)
    }

    /// Performs one request on the calling thread, blocking it until the
    /// observations are ready: for code outside Swift concurrency (a
    /// `DispatchQueue`, a command-line loop). Inside a task, prefer `perform(_:)`;
    /// a cancelled task still stops here between layers with `CancellationError`.
    public func performAndWait(_ request: ClassificationRequest) throws -> [ClassificationObservation] {
        try performNow(request)
    }

    private func performNow(_ request: ClassificationRequest) throws -> [ClassificationObservation] {
        let settings = request.snapshot
        let result = Result {
            try FoveaError.at(.init(file: source)) {
                try settings.observations(forInputTensor: try inputTensor(for: settings, threads: settings.preparationThreads), threads: nil)
            }
        }
        request.record(result)
        settings.completionHandler?(request, result)
        return try result.get()
    }

    /// Performs several requests on the image, in order, and returns each one's
    /// observations, off the caller's actor (as `perform(_:)`). Every request
    /// runs (and gets its ``ClassificationRequest/results`` set and its
    /// completion handler called) even if one fails; then the first error is
    /// thrown. As with Vision:
    ///
    /// ```swift
    /// try await handler.perform([request])
    /// let observations = request.results ?? []
    /// ```
    @concurrent
    public func perform(_ requests: [ClassificationRequest]) async throws -> [[ClassificationObservation]] {
        try Task.checkCancellation()
        return try performNow(requests)
    }

    /// `perform(_:)` on the calling thread, blocking it.
    public func performAndWait(_ requests: [ClassificationRequest]) throws -> [[ClassificationObservation]] {
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
    /// let handlers = try urls.map { try ImageRequestHandler(contentsOf: $0) }
    /// let perImage = try await ImageRequestHandler.perform(request, on: handlers)
    /// ```
    ///
    /// Runs off the caller's actor, as `perform(_:)` does.
    ///
    /// - Throws: the first error. A batch that fails as a whole is retried one
    ///   image at a time: every image is classified (and reported to the
    ///   completion handler), then the first image's error is thrown, naming it.
    @concurrent
    public static func perform(_ request: ClassificationRequest, on handlers: [ImageRequestHandler]) async throws -> [[ClassificationObservation]] {
        try Task.checkCancellation()
        return try performAndWait(request, on: handlers)
    }

    /// ``perform(_:on:)`` on the calling thread, blocking it.
    public static func performAndWait(_ request: ClassificationRequest, on handlers: [ImageRequestHandler]) throws -> [[ClassificationObservation]] {
        let settings = request.snapshot
        let batched = Result { () throws -> [[ClassificationObservation]]? in
            guard handlers.count > 1 else { return nil }
            guard let batch = Tensor.stacked(try handlers.map { try $0.inputTensor(for: settings, threads: settings.preparationThreads) }) else {
                throw FoveaError(.shapeMismatch, "only tensors of one shape [1, …] can be batched")
            }
            return try settings.observations(forBatchTensor: batch)
        }
        guard case .success(let observations?) = batched else {
            let results = handlers.map { handler in
                let result = Result {
                    try FoveaError.at(.init(file: handler.source)) {
                        try settings.observations(forInputTensor: try handler.inputTensor(for: settings, threads: settings.preparationThreads), threads: nil)
                    }
                }
                settings.completionHandler?(request, result)
                return result
            }
            return try results.map { try $0.get() }
        }
        for observation in observations { settings.completionHandler?(request, .success(observation)) }
        return observations
    }
}

/// The upright pictures a handler has decoded, by reduction (1 = full size).
private final class DecodedPictures: @unchecked Sendable {
    // @unchecked: every access to `byReduction` holds `lock`.
    private let lock = NSLock()
    private var byReduction: [Int: RGBImage] = [:]

    init(full: RGBImage? = nil) {
        byReduction[1] = full
    }

    func cached(reducedBy reduction: Int) -> RGBImage? {
        lock.withLock { byReduction[reduction] }
    }

    func store(_ picture: RGBImage, reducedBy reduction: Int) {
        lock.withLock { byReduction[reduction] = picture }
    }
}
