import Foundation

/// Image files classified one after another as an `AsyncSequence`, from
/// ``ClassificationRequest/classify(contentsOf:orientation:limits:colorMatching:batchSize:)``
/// or ``ClassificationRequest/classify(directory:recursive:orientation:limits:colorMatching:batchSize:)``.
///
/// ```swift
/// for try await image in request.classify(directory: URL(fileURLWithPath: "photos"), recursive: true) {
///     print(image.path, (try? image.result.get().first?.identifier) ?? "failed")
/// }
/// ```
///
/// Nothing runs until the sequence is iterated. Each iteration is a two-stage
/// pipeline (see `classifyAndWait(contentsOf:)`): a background thread reads,
/// decodes and prepares at most two batches ahead of the images handed out,
/// so memory stays bounded however many files there are. A bad image is
/// reported in its ``ClassifiedImage/result`` and does not stop the others;
/// the sequence throws only `CancellationError`, when the iterating task is
/// cancelled (checked before each image and between the model's layers), and
/// then stops the background thread. The request's completion handler is
/// called for each image as it is handed out.
///
/// Iterate each sequence once, from one task at a time (its iterator is not
/// `Sendable`); to classify the same files again, call `classify` again.
public struct ClassifiedImages: AsyncSequence, Sendable {
    public typealias Element = ClassifiedImage

    private let makePipeline: @Sendable () -> ClassificationPipeline

    init(_ makePipeline: @escaping @Sendable () -> ClassificationPipeline) {
        self.makePipeline = makePipeline
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(pipeline: makePipeline()) }

    /// Hands out the pipeline's images one at a time, running the model for
    /// the next batch off the caller's actor when the current one is used up.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private let pipeline: ClassificationPipeline
        private var pending: [ClassifiedImage] = []

        init(pipeline: ClassificationPipeline) { self.pipeline = pipeline }

        public mutating func next() async throws -> ClassifiedImage? {
            if pending.isEmpty {
                do {
                    try Task.checkCancellation()
                    pending = Array((try await Self.nextBatch(pipeline) ?? []).reversed())
                } catch {
                    pipeline.cancel()
                    throw error
                }
            }
            guard let image = pending.popLast() else { return nil }
            pipeline.settings.completionHandler?(pipeline.request, image.result)
            return image
        }

        /// The next batch; a batch whose run was cancelled between layers throws `CancellationError`.
        @concurrent
        private static func nextBatch(_ pipeline: ClassificationPipeline) async throws -> [ClassifiedImage]? {
            let batch = pipeline.nextBatch()
            for image in batch ?? [] {
                if case .failure(let error) = image.result, error is CancellationError { throw error }
            }
            return batch
        }
    }
}
