import Dispatch
@_spi(Internals) import Fovea
import FoveaCore

/// Measures a model's end-to-end latency and where the time goes, node by
/// node: what `fovea bench` reports (like ncnn's per-layer benchmark).
public struct LatencyBenchmark: Sendable {
    /// The time of one node, over the measured runs.
    public struct NodeProfile: Sendable, Codable, Equatable {
        /// The node's name.
        public var node: String
        /// The node's operator, such as `Conv`.
        public var opType: String
        /// The backend that ran it.
        public var backend: String
        /// The algorithm its step used.
        public var algorithm: String
        /// The arithmetic its step ran in (`PreparedStep.precision`).
        public var precision: Precision
        /// Median time of this node per run, in milliseconds.
        public var milliseconds: Double
        /// Share of the sum of all nodes' median times, 0...1.
        public var share: Double
        /// Multiply-adds × 2 per second, for Conv, Gemm and MatMul (0 otherwise).
        public var gflops: Double

        enum CodingKeys: String, CodingKey {
            case node, backend, algorithm, precision, share, gflops
            case opType = "op_type"
            case milliseconds = "ms"
        }
    }

    /// A benchmark's numbers.
    public struct Result: Sendable, Codable, Equatable {
        /// The median end-to-end time of one run, in milliseconds.
        public var medianMilliseconds: Double
        /// The fastest run, in milliseconds.
        public var minMilliseconds: Double
        /// The 90th percentile run time, in milliseconds.
        public var p90Milliseconds: Double
        /// The number of measured runs (warm-up runs excluded).
        public var runs: Int
        /// The threads each run used.
        public var threads: Int
        /// Multiply-adds of one run.
        public var multiplyAccumulates: Int
        /// Every node's time, in plan order.
        public var nodes: [NodeProfile]

        enum CodingKeys: String, CodingKey {
            case runs, threads, nodes
            case medianMilliseconds = "median_ms"
            case minMilliseconds = "min_ms"
            case p90Milliseconds = "p90_ms"
            case multiplyAccumulates = "macs"
        }
    }

    /// The model being measured.
    public let model: Model

    /// Creates a benchmark of `model` with its configuration (backends, threads).
    public init(model: Model) {
        self.model = model
    }

    /// Runs `warmup` unmeasured runs, then `runs` measured ones.
    public func run(inputs: [String: Tensor], runs: Int, warmup: Int) throws -> Result {
        guard runs >= 1, warmup >= 0 else {
            throw FoveaError(.invalidArgument, "runs must be at least 1 and warmup at least 0")
        }
        let plan = try model.plan(inputShapes: inputs.mapValues(\.shape))
        let context = model.configuration.runContext
        for _ in 0..<warmup { _ = try plan.run(inputs, context: context) }

        let nodeCount = plan.graph.nodes.count
        var totals: [Double] = []
        var perNode = [[Double]](repeating: [], count: nodeCount)
        for _ in 0..<runs {
            var times = [Double](repeating: 0, count: nodeCount)
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try plan.run(inputs, context: context) { node, seconds in times[node] = seconds }
            totals.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            for (node, seconds) in times.enumerated() { perNode[node].append(seconds * 1e3) }
        }

        let medians = perNode.map { Self.percentile($0, 0.5) }
        let nodeTotal = medians.reduce(0, +)
        let nodes = plan.assignments.enumerated().map { index, assignment in
            let macs = Graph.multiplyAccumulates(of: plan.graph.nodes[index], types: plan.valueTypes)
            return NodeProfile(node: assignment.node, opType: assignment.opType, backend: assignment.backend,
                               algorithm: assignment.algorithm, precision: assignment.precision, milliseconds: medians[index],
                               share: nodeTotal > 0 ? medians[index] / nodeTotal : 0,
                               gflops: medians[index] > 0 ? 2 * Double(macs) / (medians[index] * 1e6) : 0)
        }
        return Result(medianMilliseconds: Self.percentile(totals, 0.5), minMilliseconds: totals.min() ?? 0,
                      p90Milliseconds: Self.percentile(totals, 0.9), runs: runs, threads: context.threads,
                      multiplyAccumulates: plan.graph.multiplyAccumulateCount(types: plan.valueTypes), nodes: nodes)
    }

    /// The `p` quantile (0...1) with linear interpolation between order statistics.
    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let position = p * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = Swift.min(lower + 1, sorted.count - 1)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - Double(lower))
    }
}
