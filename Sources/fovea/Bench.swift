import ArgumentParser
@_spi(Internals) import Fovea
import FoveaTools
import Foundation

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure a model's latency, with a per-node profile; or each distinct layer on every backend (--layers).",
        discussion: """
        JSON keys: median_ms, min_ms, p90_ms, runs, threads, macs, nodes (node, op_type, backend, algorithm, ms, share, gflops).

        --layers runs each distinct layer of the model alone (same operator, attributes and shapes = one layer) on \
        every backend of --backends that can run it, and prints layer, shape, backend, algorithm, ms, GFLOP/s and the \
        percentage of the machine's FMA peak (measured at start-up, times --threads). JSON keys: cpu, peak, threads, \
        runs, warmup, layers (index, op, op_type, shape, count, nodes, macs, backends: backend, algorithm, ms, gflops, \
        peak_percent). --svg FILE draws the table as a bar chart.
        """)

    @Option(help: "The model file (.onnx).")
    var model: String

    @OptionGroup var backend: BackendOptions
    @OptionGroup var optimizations: OptimizationFlags
    @OptionGroup var pixels: PixelLimitOption

    @Option(help: "Measured runs (1...100000).")
    var runs: Int = 20

    @Option(help: "Unmeasured runs first (0...10000).")
    var warmup: Int = 3

    @Option(name: .customLong("input"), help: "An input (.npy, .pb or a photo); default: seeded random values.")
    var inputs: [String] = []

    @Option(help: "Random inputs with this batch size (first dimension) instead of the declared one (1...256).")
    var batch: Int?

    @Flag(help: "Print JSON.")
    var json = false

    @Flag(help: "Benchmark each distinct layer alone, on every backend that can run it.")
    var layers = false

    @Option(name: .customLong("backends"),
            help: "With --layers: comma-separated backends to measure, such as simd,blas,reference (default: every registered backend).")
    var layerBackends: String?

    @Option(help: "With --layers: also draw the table as a bar chart in this SVG file.")
    var svg: String?

    @Option(name: .customLong("svg-metric"), help: "With --svg: what the bars show: ms (log scale) or peak (% of the FMA peak).")
    var svgMetric: LayerBenchmarkChart.Metric?

    func validate() throws {
        try RunCounts.validate(runs: runs, warmup: warmup)
        try validateLayerOptions()
        if let batch {
            guard (1...256).contains(batch) else { throw ValidationError("--batch must be in 1...256") }
            guard inputs.isEmpty, !layers else { throw ValidationError("--batch applies to random inputs, without --input or --layers") }
        }
    }

    func run() throws {
        if layers { return try runLayers() }
        let loaded = try Model(contentsOfFile: model, configuration: backend.configuration(optimizations))
        let feeds = inputs.isEmpty ? try ModelInputs.random(for: loaded, batch: batch) : try ModelInputs.fromFiles(inputs, model: loaded, limits: pixels.limits)
        let result = try LatencyBenchmark(model: loaded).run(inputs: feeds, runs: runs, warmup: warmup)
        if json {
            try printJSON(result, [.sortedKeys])
            return
        }
        print(String(format: "%@: median %.3f ms, min %.3f ms, p90 %.3f ms (%d runs, %d thread%@, %.1f GFLOP/s)",
                     model.terminalSafe, result.medianMilliseconds, result.minMilliseconds, result.p90Milliseconds, result.runs,
                     result.threads, result.threads == 1 ? "" : "s",
                     2 * Double(result.multiplyAccumulates) / (result.medianMilliseconds * 1e6)))
        print(Self.bf16Line(hardware: BackendRegistry.bf16Hardware, precision: backend.precision.precision,
                            steps: result.nodes.filter { $0.precision == .bf16 }.count))
        if result.nodes.contains(where: { $0.backend == "blas" }) {
            print("blas: \(BackendRegistry.openBLASConfiguration)")
        }
        print("node                         op                 backend    algorithm                    ms   share  GFLOP/s")
        for node in result.nodes {
            print(String(format: "%@ %@ %@ %@ %8.3f %6.1f%% %8.1f",
                         pad(node.node.terminalSafe, 28), pad(node.opType.terminalSafe, 18), pad(node.backend, 10), pad(node.algorithm, 24),
                         node.milliseconds, node.share * 100, node.gflops))
        }
    }

    /// One line on bfloat16: whether this CPU has the hardware and how to use it,
    /// or, with `--precision bf16`, how many steps took it.
    static func bf16Line(hardware: String?, precision: Precision, steps: Int) -> String {
        let what = switch hardware {
        case "amx": "this CPU has AMX-BF16"
        case "avx512bf16": "this CPU has AVX512_BF16 (no AMX)"
        default: "this CPU has neither AVX512_BF16 nor AMX"
        }
        if precision == .bf16 {
            let kernel = hardware == nil ? " emulated on f32 arithmetic, slower than f32" : " (bf16 multiplies, f32 accumulation)"
            return "bf16: \(what); \(steps) step(s) ran in bf16\(kernel)"
        }
        return hardware == nil
            ? "bf16: \(what): --precision bf16 would only emulate it (slower than f32)"
            : "bf16: \(what): try --precision bf16 (bf16 multiplies, f32 accumulation; check with fovea parity --precision bf16)"
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text.padding(toLength: width, withPad: " ", startingAt: 0)
    }
}
