import ArgumentParser
import Foundation
@_spi(Internals) import Fovea
import FoveaCore
import FoveaTools

/// `fovea tune --model M [--threads N]`, `fovea tune --show`, `fovea tune --write-fallback FILE`.
struct Tune: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure a model's convolution algorithms on this CPU and remember the fastest.",
        discussion: """
        For every 3x3 stride-1 convolution of the model, measures the algorithms a plan may \
        choose (GEMM, Winograd F2/F4/F6) at each thread count, and stores the fastest in this \
        CPU's tuning record: $FOVEA_CACHE_DIR, else $XDG_CACHE_HOME/fovea/tuning, else \
        $HOME/.cache/fovea/tuning. Later plans on this CPU at that thread count use it \
        (`inspect --plan` says so); others take a fallback table measured on another CPU. \
        Run it on a quiet machine. See docs/tuning.md.
        """)

    @Option(help: "The model (.onnx or .mlmodel) whose convolution shapes to measure.")
    var model: String?

    @Option(help: "Measure for this many threads per run only (default: 1 and every core).")
    var threads: Int?

    @Flag(help: "Print this CPU's tuning record, where it is, and the fallback, then exit.")
    var show = false

    @Option(name: .customLong("write-fallback"),
            help: "Measure the fallback table's grid of shapes (minutes) and write it as Swift source to this file (Sources/Backends/Kernels/ConvolutionAlgorithmTable+Measured.swift).")
    var writeFallback: String?

    func validate() throws {
        try ThreadCount.validate(threads)
        if !show && model == nil && writeFallback == nil {
            throw ValidationError("give --model M, --show or --write-fallback FILE")
        }
    }

    func run() throws {
        if show {
            print(ModelTuning.show())
            return
        }
        if let writeFallback {
            let source = try ModelTuning.fallbackTable(threads: ThreadCount.used(threads) ?? RunContext.defaultThreadCount) {
                FileHandle.standardError.write(Data("\($0)\n".utf8))
            }
            try source.write(toFile: writeFallback, atomically: true, encoding: .utf8)
            print("wrote \(writeFallback.terminalSafe)")
        }
        guard let model else { return }
        let counts = threads.map { [ThreadCount.used($0) ?? $0] } ?? Array(Set([1, RunContext.defaultThreadCount])).sorted()
        let lines = try ModelTuning.tune(modelPath: model, threads: counts)
        for line in lines { print(SafeText.escaped(line.text)) }
        print("measured \(lines.count) shape(s) at \(counts.map(String.init).joined(separator: " and ")) thread(s); stored in \(ModelTuning.recordPath.terminalSafe)")
    }
}
