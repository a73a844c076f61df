/// How many threads the pipelined classifier
/// (`ClassificationPipeline`, behind ``ClassificationRequest/classify(contentsOf:orientation:limits:colorMatching:batchSize:)``)
/// gives inference while its background thread reads and prepares the next images.
///
/// An inference thread that shares its core with the busy background thread
/// holds up the others at every layer's barrier, so running on one thread fewer
/// can be faster (measured on SqueezeNet 1.1 at 2 threads: Benchmarks/results/,
/// docs/performance.md); a large model, whose inference
/// takes much longer than preparing its input, wants every thread. How much the
/// sharing costs depends on the model's layers, on how the kernels' threads wait,
/// and on what else the machine runs, so the split is measured, not predicted:
/// times of inference and preparation measured side by side cannot predict it
/// (each slows the other, so inference always looks slower than preparation).
///
/// After the first batch (it builds the execution plan), windows of batches run
/// alternately with every thread and with one fewer, ``rounds`` of each, and the
/// faster in images per second (whole pipeline steps: waiting for the next
/// images, inference and the caller's work) is kept for the rest. The first
/// ``warmUpBatches`` of each window are not counted: the prefetched images left
/// from the previous window would flatter it.
struct PipelineThreadSplit {
    /// The model's configured threads.
    let threads: Int
    /// Batches counted per window.
    let measuredBatches: Int
    /// Batches run, not counted, at the start of each window.
    let warmUpBatches: Int
    /// Windows with each thread count.
    let rounds: Int
    /// Threads for the next inference.
    private(set) var inferenceThreads: Int
    /// Whether the split is settled (one thread, or decided from the windows).
    private(set) var isSettled: Bool

    /// Pipeline steps recorded, the plan-building first one included.
    private var steps = 0
    /// Seconds and images counted with every thread ([0]) and with one fewer ([1]).
    private var seconds = [0.0, 0.0]
    private var images = [0, 0]

    /// - Parameters:
    ///   - threads: the model's threads.
    ///   - measuredBatches: batches counted per window.
    ///   - warmUpBatches: batches not counted at the start of each window; at
    ///     least as many as the prefetcher holds.
    ///   - rounds: windows with each thread count.
    init(threads: Int, measuredBatches: Int = 6, warmUpBatches: Int = 2, rounds: Int = 2) {
        self.threads = max(1, threads)
        self.measuredBatches = max(1, measuredBatches)
        self.warmUpBatches = max(0, warmUpBatches)
        self.rounds = max(1, rounds)
        inferenceThreads = self.threads
        isSettled = self.threads == 1
    }

    /// Batches in one window.
    private var windowBatches: Int { warmUpBatches + measuredBatches }

    /// Records one pipeline step, run on ``inferenceThreads``: `images` images
    /// taken from the prefetcher, run and handed on in `seconds`.
    mutating func record(images count: Int, seconds elapsed: Double) {
        steps += 1
        guard !isSettled, steps > 1 else { return }
        let step = steps - 2
        let window = step / windowBatches
        let option = window % 2
        if step % windowBatches >= warmUpBatches {
            seconds[option] += elapsed
            images[option] += count
        }
        let next = step + 1
        if next == 2 * rounds * windowBatches {
            isSettled = true
            inferenceThreads = rate(0) >= rate(1) ? threads : threads - 1
        } else {
            inferenceThreads = (next / windowBatches) % 2 == 0 ? threads : threads - 1
        }
    }

    /// Images per second counted for option 0 (every thread) or 1 (one fewer).
    private func rate(_ option: Int) -> Double {
        seconds[option] > 0 ? Double(images[option]) / seconds[option] : 0
    }
}
