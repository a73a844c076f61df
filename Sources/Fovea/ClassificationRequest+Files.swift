import Foundation

/// One image classified by ``ClassificationRequest/classify(contentsOf:orientation:limits:colorMatching:batchSize:)``,
/// ``ClassificationRequest/classify(directory:recursive:orientation:limits:colorMatching:batchSize:)``
/// or ``ClassificationRequest/classifyAndWait(contentsOf:orientation:limits:colorMatching:batchSize:_:)``.
public struct ClassifiedImage: Sendable {
    /// The file's path, as given (or as found in the folder).
    public let path: String
    /// The orientation applied (given, or read from EXIF); `nil` when the file could not be read.
    public let orientation: ImageOrientation?
    /// The observations, or this image's error (naming the file).
    public let result: Result<[ClassificationObservation], any Error>
}

extension ClassificationRequest {
    /// Classifies image files in order, as a two-stage pipeline, and hands
    /// them out as an `AsyncSequence` (see ``ClassifiedImages``):
    ///
    /// ```swift
    /// for try await image in request.classify(contentsOf: paths) {
    ///     print(image.path, (try? image.result.get().first?.identifier) ?? "failed")
    /// }
    /// ```
    ///
    /// A background thread reads, decodes and prepares the next images (one
    /// thread, reduced JPEG decoding as ``ImageRequestHandler`` does) while
    /// the model runs on the current ones. On a machine with spare cycles
    /// beside inference, the picture work hides behind it. Over the first few
    /// dozen images, inference runs alternately on the model's threads and on
    /// one fewer (leaving a core to the background thread), and keeps whichever
    /// classifies more images per second (see `PipelineThreadSplit`).
    ///
    /// `paths` may be any sequence, read lazily on the background thread just
    /// ahead of the images being prepared: a sequence that reads paths from a
    /// file or a pipe keeps memory bounded however long it is, and one that
    /// waits for its next path does not hold back the images already read.
    ///
    /// - Parameters:
    ///   - paths: the image files (JPEG, PNG, HEIC/HEIF, AVIF, WebP or PPM), classified in this order.
    ///   - orientation: how every file's stored pixels are turned; `nil` reads
    ///     each file's EXIF Orientation tag.
    ///   - limits: the largest image accepted, checked from each file's header.
    ///   - colorMatching: whether colours are matched from each file's profile to sRGB.
    ///   - batchSize: images per inference (≥ 1). Several images run as one
    ///     `N×C×H×W` batch when the model accepts it, else one at a time.
    public func classify<Paths: Sequence & Sendable>(contentsOf paths: Paths, orientation: ImageOrientation? = nil,
                                                     limits: ImageDecodingLimits = .default, colorMatching: ColorMatching = .auto,
                                                     batchSize: Int = 1) -> ClassifiedImages where Paths.Element == String {
        let request = self
        return ClassifiedImages {
            ClassificationPipeline(request: request, paths: paths, orientation: orientation, limits: limits,
                                   colorMatching: colorMatching, batchSize: batchSize)
        }
    }

    /// Classifies the image files of a folder, as ``classify(contentsOf:orientation:limits:colorMatching:batchSize:)``
    /// does a list of paths: every file whose extension names an image format
    /// (`.jpg`, `.jpeg`, `.png`, `.heic`, `.heif`, `.avif`, `.webp`, `.ppm`,
    /// `.pgm`, in any case; the filter of `fovea classify DIR`), sorted by name,
    /// hidden files left out.
    ///
    /// ```swift
    /// for try await image in try request.classify(directory: URL(fileURLWithPath: "photos"), recursive: true) {
    ///     print(image.path, (try? image.result.get().first?.identifier) ?? "failed")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - directory: a file URL of the folder.
    ///   - recursive: whether subfolders are searched too (each after the files
    ///     beside it). Folders are listed as the walk reaches them, so a tree of
    ///     millions of files is never held in memory at once.
    ///   - orientation: how every file's stored pixels are turned; `nil` reads
    ///     each file's EXIF Orientation tag.
    ///   - limits: the largest image accepted, checked from each file's header.
    ///   - colorMatching: whether colours are matched from each file's profile to sRGB.
    ///   - batchSize: images per inference (≥ 1), as for a list of paths.
    /// - Throws: `.invalidArgument` for a URL that is not a file URL; `.io`,
    ///   naming the folder, when it does not exist, is a file or cannot be read.
    public func classify(directory: URL, recursive: Bool = false, orientation: ImageOrientation? = nil,
                         limits: ImageDecodingLimits = .default, colorMatching: ColorMatching = .auto,
                         batchSize: Int = 1) throws -> ClassifiedImages {
        guard directory.isFileURL else {
            throw FoveaError(.invalidArgument, "only file URLs can be read, not '\(directory.absoluteString)'")
        }
        let files = try ImageDirectory(directory.path, recursive: recursive)
        return classify(contentsOf: files, orientation: orientation, limits: limits, colorMatching: colorMatching, batchSize: batchSize)
    }

    /// ``classify(contentsOf:orientation:limits:colorMatching:batchSize:)`` on
    /// the calling thread, blocking it: `body` is called on the calling thread
    /// for each image, in order, as soon as it is classified; so is the
    /// ``completionHandler``. A bad image is reported in its
    /// ``ClassifiedImage/result`` and does not stop the others. An error thrown
    /// by `body` stops the pipeline and is rethrown.
    ///
    /// ```swift
    /// try request.classifyAndWait(contentsOf: paths) { image in
    ///     print(image.path, (try? image.result.get().first?.identifier) ?? "failed")
    /// }
    /// ```
    public func classifyAndWait<Paths: Sequence & Sendable>(contentsOf paths: Paths, orientation: ImageOrientation? = nil,
                                                            limits: ImageDecodingLimits = .default, colorMatching: ColorMatching = .auto,
                                                            batchSize: Int = 1, _ body: (ClassifiedImage) throws -> Void) throws
    where Paths.Element == String {
        let pipeline = ClassificationPipeline(request: self, paths: paths, orientation: orientation, limits: limits,
                                              colorMatching: colorMatching, batchSize: batchSize)
        defer { pipeline.cancel() }
        while let batch = pipeline.nextBatch() {
            for image in batch {
                pipeline.settings.completionHandler?(self, image.result)
                try body(image)
            }
        }
    }
}
