import Foundation

/// One image classified by ``ClassificationRequest/classify(contentsOf:orientation:limits:colorMatching:batchSize:_:)``.
public struct ClassifiedImage: Sendable {
    /// The file's path, as given.
    public let path: String
    /// The orientation applied (given, or read from EXIF); `nil` when the file could not be read.
    public let orientation: ImageOrientation?
    /// The observations, or this image's error (naming the file).
    public let result: Result<[ClassificationObservation], any Error>
}

extension ClassificationRequest {
    /// Classifies image files in order, as a two-stage pipeline: a background
    /// thread reads, decodes and prepares the next images (one thread, reduced
    /// JPEG decoding as ``ImageRequestHandler`` does) while the calling thread
    /// runs the model on the current ones. On a machine with spare cycles
    /// beside inference, the picture work hides behind it. Over the first few
    /// dozen images, inference runs alternately on the model's threads and on
    /// one fewer (leaving a core to the background thread), and keeps whichever
    /// classifies more images per second (see `PipelineThreadSplit`).
    ///
    /// `body` is called on the calling thread for each image, in order, as
    /// soon as it is classified; so is the ``completionHandler``. A bad image
    /// is reported in its ``ClassifiedImage/result`` and does not stop the
    /// others. An error thrown by `body` stops the pipeline and is rethrown.
    ///
    /// ```swift
    /// try request.classify(contentsOf: paths) { image in
    ///     print(image.path, (try? image.result.get().first?.identifier) ?? "failed")
    /// }
    /// ```
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
    ///   - body: called with each classified image, in order.
    public func classify<Paths: Sequence & Sendable>(contentsOf paths: Paths, orientation: ImageOrientation? = nil,
                                                     limits: ImageDecodingLimits = .default, colorMatching: ColorMatching = .auto, batchSize: Int = 1,
                                                     _ body: (ClassifiedImage) throws -> Void) throws where Paths.Element == String {
        let batchSize = max(1, batchSize)
        let request = self
        let source = PathSource(paths)
        // Two batches in flight: one being run, the next being prepared. The
        // item after the last path is `nil`: the prefetcher does not know the count.
        let prefetcher = Prefetcher<PreparedFile?>(count: .max, depth: 2 * batchSize) { _ in
            source.next().map { PreparedFile(path: $0, request: request, orientation: orientation, limits: limits, colorMatching: colorMatching) }
        }
        defer { prefetcher.cancel() }
        var split = PipelineThreadSplit(threads: model.configuration.effectiveThreads)
        let clock = ContinuousClock()
        var taken = 0
        var ended = false
        while !ended {
            let began = clock.now
            var files: [PreparedFile] = []
            while files.count < batchSize {
                guard let file = prefetcher.take(taken) else { ended = true; break }
                files.append(file)
                taken += 1
            }
            if files.isEmpty { break }
            let results = run(files, threads: split.inferenceThreads)
            for (file, result) in zip(files, results) {
                completionHandler?(self, result)
                try body(ClassifiedImage(path: file.path, orientation: file.orientation, result: result))
            }
            // The whole step, waiting for the images included: the pipeline's pace.
            split.record(images: files.count, seconds: (clock.now - began).seconds)
        }
    }

    /// Runs the prepared files: as one batch when there are several and the
    /// model takes it, else one by one.
    private func run(_ files: [PreparedFile], threads: Int) -> [Result<[ClassificationObservation], any Error>] {
        let tensors = files.compactMap { try? $0.tensor.get() }
        if tensors.count > 1, let batch = Tensor.stacked(tensors),
           let batched = try? observations(forBatchTensor: batch, threads: threads) {
            var next = batched.makeIterator()
            return files.map { file in file.tensor.map { _ in next.next() ?? [] } }
        }
        return files.map { file in
            file.tensor.flatMap { tensor in
                Result { try FoveaError.at(.init(file: file.path)) { try observations(forInputTensor: tensor, threads: threads) } }
            }
        }
    }
}

/// The paths' iterator, advanced only by the prefetcher's thread; once it has
/// ended it keeps answering `nil` (an iterator need not, after its end).
private final class PathSource<Paths: Sequence>: @unchecked Sendable where Paths.Element == String {
    // @unchecked: only the prefetcher's one thread calls `next()`.
    private var iterator: Paths.Iterator
    private var ended = false

    init(_ paths: Paths) { iterator = paths.makeIterator() }

    func next() -> String? {
        guard !ended else { return nil }
        guard let path = iterator.next() else { ended = true; return nil }
        return path
    }
}

/// One file read, decoded and prepared by the pipeline's first stage.
private struct PreparedFile: Sendable {
    let path: String
    let orientation: ImageOrientation?
    let tensor: Result<Tensor, any Error>

    init(path: String, request: ClassificationRequest, orientation: ImageOrientation?, limits: ImageDecodingLimits,
         colorMatching: ColorMatching) {
        self.path = path
        do {
            let handler = try ImageRequestHandler(contentsOf: path, orientation: orientation, limits: limits, colorMatching: colorMatching)
            self.orientation = handler.orientation
            // One thread: the model's threads are busy with the previous image.
            tensor = Result { try handler.inputTensor(for: request, threads: 1) }
        } catch {
            self.orientation = nil
            tensor = .failure(error)
        }
    }
}
