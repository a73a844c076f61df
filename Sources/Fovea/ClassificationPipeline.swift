import Foundation

/// The two-stage pipeline behind ``ClassificationRequest/classifyAndWait(contentsOf:orientation:limits:colorMatching:batchSize:_:)``
/// and ``ClassifiedImages``: a background thread reads, decodes and prepares
/// the next images (``Prefetcher``) while the consumer runs the model on the
/// current batch. One consumer at a time calls ``nextBatch()``.
final class ClassificationPipeline: @unchecked Sendable {
    // @unchecked: `split`, `taken` and `ended` are used only by the one consumer
    // (the caller of classifyAndWait, or the one iterator of a ClassifiedImages).
    let request: ClassificationRequest
    /// The request's settings when the pipeline started; every image uses them.
    let settings: ClassificationRequest.Snapshot
    private let batchSize: Int
    private let prefetcher: Prefetcher<PreparedFile?>
    private var split: PipelineThreadSplit
    private var taken = 0
    private var ended = false

    init<Paths: Sequence & Sendable>(request: ClassificationRequest, paths: Paths, orientation: ImageOrientation?,
                                     limits: ImageDecodingLimits, colorMatching: ColorMatching, batchSize: Int) where Paths.Element == String {
        let batchSize = max(1, batchSize)
        let settings = request.snapshot
        self.request = request
        self.settings = settings
        self.batchSize = batchSize
        let source = PathSource(paths)
        // Two batches in flight: one being run, the next being prepared. The
        // item after the last path is `nil`: the prefetcher does not know the count.
        prefetcher = Prefetcher<PreparedFile?>(count: .max, depth: 2 * batchSize) { _ in
            source.next().map { PreparedFile(path: $0, request: settings, orientation: orientation, limits: limits, colorMatching: colorMatching) }
        }
        split = PipelineThreadSplit(threads: request.model.configuration.effectiveThreads)
    }

    deinit { prefetcher.cancel() }

    /// Stops the background thread early.
    func cancel() { prefetcher.cancel() }

    /// The next batch of classified images, in order; `nil` after the last.
    /// Waits (blocking the calling thread) for the background thread to prepare
    /// them. The consumer calls the request's completion handler for each, as it hands it on.
    func nextBatch() -> [ClassifiedImage]? {
        guard !ended else { return nil }
        let clock = ContinuousClock()
        let began = clock.now
        var files: [PreparedFile] = []
        while files.count < batchSize {
            guard let file = prefetcher.take(taken) else { ended = true; break }
            files.append(file)
            taken += 1
        }
        if files.isEmpty { return nil }
        let results = run(files, threads: split.inferenceThreads)
        defer {
            // The whole step, waiting for the images included: the pipeline's pace.
            split.record(images: files.count, seconds: (clock.now - began).seconds)
        }
        return zip(files, results).map { file, result in
            ClassifiedImage(path: file.path, orientation: file.orientation, result: result)
        }
    }

    /// Runs the prepared files: as one batch when there are several and the
    /// model takes it, else one by one.
    private func run(_ files: [PreparedFile], threads: Int) -> [Result<[ClassificationObservation], any Error>] {
        let tensors = files.compactMap { try? $0.tensor.get() }
        if tensors.count > 1, let batch = Tensor.stacked(tensors),
           let batched = try? settings.observations(forBatchTensor: batch, threads: threads) {
            var next = batched.makeIterator()
            return files.map { file in file.tensor.map { _ in next.next() ?? [] } }
        }
        return files.map { file in
            file.tensor.flatMap { tensor in
                Result { try FoveaError.at(.init(file: file.path)) { try settings.observations(forInputTensor: tensor, threads: threads) } }
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

    init(path: String, request: ClassificationRequest.Snapshot, orientation: ImageOrientation?, limits: ImageDecodingLimits,
         colorMatching: ColorMatching) {
        self.path = path
        do {
            let handler = try ImageRequestHandler(contentsOfFile: path, orientation: orientation, limits: limits, colorMatching: colorMatching)
            self.orientation = handler.orientation
            // One thread: the model's threads are busy with the previous image.
            tensor = Result { try handler.inputTensor(for: request, threads: 1) }
        } catch {
            self.orientation = nil
            tensor = .failure(error)
        }
    }
}
