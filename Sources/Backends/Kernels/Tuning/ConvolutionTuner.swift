import CFoveaKernels
import Foundation
import FoveaCore

/// Measures the algorithms a plan may choose for one 3×3 stride-1 convolution,
/// on this machine, at one thread count.
///
/// Each candidate is prepared as the plan would prepare it (same steps, same kernels,
/// random weights), then run on one shared input in alternating rounds, so that a
/// change in the machine's load touches every candidate alike; the median of the rounds
/// is its time. Only candidates the plan may choose are measured: F(4) and F(6) are left
/// out on planes above ``ConvolutionShape/largestPlaneForLargeWinogradTiles`` (accuracy).
enum ConvolutionTuner {
    /// Every algorithm a tuning record may name for a 3×3 stride-1 convolution.
    static let tunable: [ConvolutionAlgorithm] = [.gemm, .winogradF2, .winogradF4, .winogradF6]

    /// The candidates for `shape`, in ``tunable`` order.
    static func candidates(_ shape: ConvolutionShape) -> [ConvolutionAlgorithm] {
        tunable.filter { shape.accurateEnough($0) == $0 }
    }

    /// Median milliseconds per candidate (`candidates`, else ``candidates(_:)``) for `key`'s
    /// convolution at `key.threads` threads, with at least `minimumRounds` rounds and more
    /// while under `secondsPerShape`.
    static func measure(_ key: TuningKey, candidates chosen: [ConvolutionAlgorithm]? = nil, minimumRounds: Int = 5,
                        maximumRounds: Int = 21, secondsPerShape: Double = 0.5) throws -> [(ConvolutionAlgorithm, Double)] {
        let shape = key.shape
        let p = shape.params
        var generator = SeededGenerator(seed: 0x7475_6e65)
        let weights = (0 ..< p.output_channels * p.channels * 9).map { _ in Float.random(in: -0.1 ... 0.1, using: &generator) }
        let bias = (0 ..< p.output_channels).map { _ in Float.random(in: -0.1 ... 0.1, using: &generator) }
        let candidates = chosen ?? candidates(shape)
        let steps: [any PreparedStep] = try candidates.map { algorithm -> any PreparedStep in
            if algorithm == .gemm {
                return try PackedGemmConvolutionStep(shape: shape, weights: weights, bias: bias, runTimeBias: false)
            }
            return try WinogradConvolutionStep(shape: shape, variant: algorithm, weights: weights, bias: bias, runTimeBias: false)
        }
        let context = RunContext(threads: key.threads)
        let inputShape = [p.batch, p.channels, p.input_height, p.input_width]
        let outputShape = [p.batch, p.output_channels, p.output_height, p.output_width]
        let input = Buffer(count: inputShape.reduce(1, *)), output = Buffer(count: outputShape.reduce(1, *))
        for i in 0 ..< input.count { input.floats[i] = Float.random(in: -1 ... 1, using: &generator) }
        let workspace = Buffer(count: (steps.map { $0.workspaceBytes(threads: key.threads) }.max() ?? 0) / 4 + 16)
        let buffers = StepBuffers(
            inputs: [TensorView(base: UnsafeMutableRawPointer(input.floats), dataType: .float32, shape: inputShape)],
            outputs: [TensorView(base: UnsafeMutableRawPointer(output.floats), dataType: .float32, shape: outputShape)],
            workspace: UnsafeMutableRawPointer(workspace.floats))
        for step in steps { try step.run(buffers, context: context) }  // warm caches and the worker threads
        var times = Array(repeating: [Double](), count: steps.count)
        let start = DispatchTime.now().uptimeNanoseconds
        for round in 0 ..< maximumRounds {
            for (index, step) in steps.enumerated() {
                let before = DispatchTime.now().uptimeNanoseconds
                try step.run(buffers, context: context)
                times[index].append(Double(DispatchTime.now().uptimeNanoseconds - before) / 1e6)
            }
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            if round + 1 >= minimumRounds && elapsed > secondsPerShape { break }
        }
        return zip(candidates, times).map { ($0, median($1)) }
    }

    /// The candidate with the least time.
    static func fastest(_ times: [(ConvolutionAlgorithm, Double)]) -> ConvolutionAlgorithm {
        times.min { $0.1 < $1.1 }?.0 ?? .gemm
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .infinity }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    /// Floats on the heap, 64-byte aligned, freed with the buffer.
    private final class Buffer {
        let floats: UnsafeMutablePointer<Float>
        let count: Int
        init(count: Int) {
            self.count = Swift.max(count, 1)
            let raw = UnsafeMutableRawPointer.allocate(byteCount: self.count * 4, alignment: 64)
            floats = raw.initializeMemory(as: Float.self, repeating: 0, count: self.count)
        }
        deinit { floats.deallocate() }
    }
}
