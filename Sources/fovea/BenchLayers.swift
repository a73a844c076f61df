import ArgumentParser
@_spi(Internals) import Fovea
import FoveaTools
import Foundation
import FoveaCore

extension LayerBenchmarkChart.Metric: ExpressibleByArgument {}

/// `fovea bench --layers`: each distinct layer alone, on every backend that runs it.
extension Bench {
    func validateLayerOptions() throws {
        guard layers else {
            if layerBackends != nil { throw ValidationError("--backends needs --layers (to force backends for the whole model, use --backend)") }
            if svg != nil { throw ValidationError("--svg needs --layers") }
            if svgMetric != nil { throw ValidationError("--svg-metric needs --layers and --svg") }
            return
        }
        if svgMetric != nil && svg == nil { throw ValidationError("--svg-metric needs --svg") }
        if backend.backends != nil { throw ValidationError("with --layers, list the backends to compare with --backends") }
        if !inputs.isEmpty { throw ValidationError("--input does not apply to --layers: each layer runs on seeded random inputs") }
        if let layerBackends {
            try BackendOptions.validateBackendNames(layerBackends, option: "--backends", registry: backend.winograd.registry)
        }
    }

    func runLayers() throws {
        // The registry carries the backends' own settings (--winograd); the preference list does not apply.
        let configuration = backend.configuration(optimizations)
        let loaded = try Model(contentsOfFile: model, configuration: ModelConfiguration(registry: configuration.registry,
                                                                                    optimizations: configuration.optimizations,
                                                                                    memoryLimit: configuration.memoryLimit))
        let backends = try LayerBenchmark.backends(named: layerBackends.map(BackendOptions.backendNames),
                                                   registry: configuration.registry)
        let benchmark = try LayerBenchmark(model: loaded)
        let threads = configuration.threads ?? RunContext.defaultThreadCount  // clamped, warned once
        let result = try benchmark.run(backends: backends, threads: threads, runs: runs, warmup: warmup,
                                       precision: configuration.precision)
        let name = (model as NSString).lastPathComponent
        if let svg {
            try LayerBenchmarkChart.svg(result, metric: svgMetric ?? .milliseconds, title: name)
                .write(toFile: svg, atomically: true, encoding: .utf8)
        }
        if json {
            try printJSON(result, [.sortedKeys, .withoutEscapingSlashes])
            return
        }
        let nodeCount = result.layers.reduce(0) { $0 + $1.count }
        print("\(name.terminalSafe): \(result.layers.count) distinct layers of \(nodeCount) nodes (view-only nodes left out), "
              + "\(threads) thread\(threads == 1 ? "" : "s"), median of \(runs) runs after \(warmup) warmup")
        print("cpu: \(result.cpu)")
        print(String(format: "peak: %.1f GFLOP/s per core, measured (%@ FMA, one thread); %% peak is of %.1f GFLOP/s (%d thread%@)",
                     result.peak.gflopsPerCore, result.peak.isa, result.peakGFLOPS, threads, threads == 1 ? "" : "s"))
        print(String(format: "bandwidth: %.1f GB/s, measured (memcpy of 64 MB, %d thread%@); %% bw is of that",
                     result.bandwidth.gigabytesPerSecond, result.bandwidth.threads, result.bandwidth.threads == 1 ? "" : "s"))
        if backends.contains(where: { $0.name == "blas" }) {
            print("blas: \(BackendRegistry.openBLASConfiguration)")
        }
        print(Self.layerTable(result))
    }

    /// The table: one row per layer and backend; layer, shape and nodes on a layer's first row only.
    static func layerTable(_ result: LayerBenchmark.Result) -> String {
        let header = ["#", "layer", "shape", "backend", "algorithm", "ms", "GFLOP/s", "% peak", "GB/s", "% bw", "nodes"]
        var rows: [[String]] = []
        for layer in result.layers {
            let label = layer.op + (layer.count > 1 ? " ×\(layer.count)" : "")
            let nodes = (layer.nodes.first ?? "") + (layer.count > 1 ? " +\(layer.count - 1)" : "")
            if layer.backends.isEmpty {
                rows.append(["\(layer.index)", label, layer.shape, "(none)", "", "", "", "", "", "", nodes])
            }
            for (position, entry) in layer.backends.enumerated() {
                let first = position == 0
                let counted = layer.multiplyAccumulates > 0
                rows.append([first ? "\(layer.index)" : "", first ? label : "", first ? layer.shape : "",
                             entry.backend, entry.algorithm, String(format: "%.3f", entry.milliseconds),
                             counted ? String(format: "%.1f", entry.gflops) : "-",
                             counted ? String(format: "%.1f", entry.percentOfPeak) : "-",
                             String(format: "%.1f", entry.gigabytesPerSecond),
                             String(format: "%.0f", entry.percentOfBandwidth),
                             first ? nodes : ""])
            }
        }
        let numeric: Set<Int> = [5, 6, 7, 8, 9]
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column == cells.count - 1 ? cell : numeric.contains(column) ? padding + cell : cell + padding
            }.joined(separator: "  ")
        }
        func trimmed(_ text: String) -> String {
            String(text.reversed().drop(while: { $0 == " " }).reversed())
        }
        // Node names come from the model file.
        rows = rows.map { $0.map(SafeText.escaped) }
        return ([line(header)] + rows.map(line)).map(trimmed).joined(separator: "\n")
    }
}
