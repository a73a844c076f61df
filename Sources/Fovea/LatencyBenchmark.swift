import Dispatch

/// Measures a model's end-to-end latency and where the time goes, node by
/// node: what `fovea bench` reports (like ncnn's per-layer benchmark).
public struct LatencyBenchmark: Sendable {
    /// The time of one node, over the measured runs.
    public struct NodeProfile: Sendable, Codable, Equatable {
        public var node: String
        public var opType: String
        public var backend: String
        public var algorithm: String
        /// Median time of this node per run, in milliseconds.
        public var milliseconds: Double
        /// Share of the sum of all nodes' median times, 0...1.
        public var share: Double
        /// Multiply-adds × 2 per second, for Conv, Gemm and MatMul (0 otherwise).
        public var gflops: Double

        enum CodingKeys: String, CodingKey {
            case node, backend, algorithm, share, gflops
            case opType = "op_type"
            case milliseconds = "ms"
        }
    }

    /// A benchmark's numbers.
    public struct Result: Sendable, Codable, Equatable {
        public var medianMilliseconds: Double
        public var minMilliseconds: Double
        public var p90Milliseconds: Double
        public var runs: Int
        public var threads: Int
        /// Multiply-adds of one run.
        public var multiplyAccumulates: Int
        public var nodes: [NodeProfile]

        enum CodingKeys: String, CodingKey {
            case runs, threads, nodes
            case medianMilliseconds = "median_ms"
            case minMilliseconds = "min_ms"
            case p90Milliseconds = "p90_ms"
            case multiplyAccumulates = "macs"
        }
    }

    public let model: Model

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
                               algorithm: assignment.algorithm, milliseconds: medians[index],
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
