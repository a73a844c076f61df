/// How many threads the pipelined classifier
/// (``ClassificationRequest/classify(contentsOf:orientation:limits:batchSize:_:)``)
/// gives inference while its background thread reads and prepares the next images.
///
/// Inference starts with every thread the model is configured for. When reading
/// and preparing an image takes at least as long as running it, the background
/// thread is busy all the time, and an inference thread that shares its core
/// holds up the others at every layer's barrier (measured on SqueezeNet 1.1 at
/// 2 threads: 131 images/s, against 157 with 1 inference thread beside the
/// decoder). Inference then gives that core to the decoder and runs on one thread
/// fewer. A large model, whose inference takes much longer than preparing its
/// input, keeps every thread.
struct PipelineThreadSplit {
    /// The model's configured threads.
    let threads: Int
    /// Images measured before deciding. The first batch is never measured: it
    /// builds the execution plan.
    let samples: Int
    /// Threads for the next inference.
    private(set) var inferenceThreads: Int

    private var measured = 0
    private var preparationSeconds = 0.0
    private var inferenceSeconds = 0.0
    private var batches = 0

    init(threads: Int, samples: Int = 4) {
        self.threads = max(1, threads)
        self.samples = max(1, samples)
        inferenceThreads = self.threads
    }

    /// Whether the split is settled (one thread, or decided from the samples).
    var isSettled: Bool { threads == 1 || measured >= samples }

    /// Records one batch: the preparation time of each of its images (on the
    /// background thread) and the batch's inference time.
    mutating func record(preparationSeconds preparation: [Double], inferenceSeconds inference: Double) {
        batches += 1
        guard batches > 1, !isSettled, !preparation.isEmpty else { return }
        measured += preparation.count
        preparationSeconds += preparation.reduce(0, +)
        inferenceSeconds += inference
        if measured >= samples, preparationSeconds >= inferenceSeconds {
            inferenceThreads = threads - 1
        }
    }
}
