import ArgumentParser
@_spi(Internals) import Fovea
import FoveaTools
import Foundation
import FoveaCore

struct Parity: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare backends node by node against the reference backend.",
        discussion: """
        Runs the same input through each backend, forcing it in turn (nodes it \
        cannot run go to the reference backend and are listed), and reports for \
        every node the max absolute error and the max relative error (the absolute \
        error divided by the largest magnitude of the reference output). Exits \
        non-zero if a backend exceeds its documented tolerance. The last line is \
        `parity ok` or `parity FAILED`.

        With --precision bf16 every backend's plan is built in bf16 and each \
        step is checked alone, on the inputs the plan gave it, against its own \
        tolerance (looser for bf16 steps; the error from the input on is \
        printed, not bounded, since roundings compound), and a whole-model \
        line per backend compares it with the same backend in f32: the largest \
        output (logit) error relative to the largest f32 output magnitude, and \
        top-1 / top-5 agreement over every input given. Give several photos or \
        a folder of photos to an image model to compare over all of them (the \
        node-by-node check runs on the first).
        """)

    @Option(help: "The model file (.onnx).")
    var model: String

    @Option(name: .customLong("input"), help: "An input: .npy, .pb, or a photo for an image model (one per graph input); for a one-input image model, several photos or a folder are samples. Default: seeded random values.")
    var inputs: [String] = []

    @Option(help: "Comma-separated backends to compare with the reference (default: every registered backend).")
    var backends: String?

    @Option(help: "Intra-op threads per run (default: every core; more than the machine's cores is clamped to them).")
    var threads: Int?

    @Flag(help: "Print JSON.")
    var json = false

    @OptionGroup var optimizations: OptimizationFlags
    @OptionGroup var winograd: WinogradOption
    @OptionGroup var memory: MemoryLimitOption
    @OptionGroup var pixels: PixelLimitOption
    @OptionGroup var precision: PrecisionOption

    func validate() throws {
        try ThreadCount.validate(threads)
        if let backends {
            try BackendOptions.validateBackendNames(backends, option: "--backends", registry: winograd.registry)
        }
    }

    func run() throws {
        let loaded = try Model(contentsOfFile: model, configuration: ModelConfiguration(optimizations: optimizations.options,
                                                                                    memoryLimit: memory.limit))
        let registry = winograd.registry
        let names = backends.map(BackendOptions.backendNames) ?? registry.names
        // The reference is the baseline, not a candidate.
        let candidates = try registry.backends(named: names).filter { $0.name != ReferenceBackend.name }
        let samples = try self.samples(for: loaded)
        let check = ParityCheck(model: loaded, threads: ThreadCount.used(threads), precision: precision.precision)
        let reports = try check.run(inputs: samples[0], backends: candidates)
        let costs = precision.precision == .f32 ? [] : try check.comparePrecision(samples: samples, backends: candidates)
        let ok = reports.allSatisfy(\.passed)

        if json {
            if costs.isEmpty {
                try printJSON(reports, [.sortedKeys, .prettyPrinted])
            } else {
                try printJSON(PrecisionParityReport(backends: reports, precision: costs), [.sortedKeys, .prettyPrinted])
            }
        } else {
            for report in reports {
                print("\(report.backend) (tolerance per step, at most \(report.tolerance) relative)")
                if precision.precision != .f32 {
                    print("  (rel: from the model's input on; step: each step alone on the inputs this backend gave it, what the tolerance bounds)")
                }
                for node in report.nodes {
                    let bound = node.stepRelativeError == nil ? node.tolerance : node.stepTolerance
                    let flag = node.passed ? "" : "  EXCEEDS \(bound)"
                    let step = node.stepRelativeError.map { "  step \(format($0))" } ?? ""
                    print("  \(node.node.terminalSafe.padding(toLength: 28, withPad: " ", startingAt: 0)) \(node.opType.terminalSafe.padding(toLength: 18, withPad: " ", startingAt: 0)) \(node.backend.padding(toLength: 10, withPad: " ", startingAt: 0)) abs \(format(node.maxAbsoluteError))  rel \(format(node.maxRelativeError))\(step)\(flag)")
                }
                if !report.fallbacks.isEmpty {
                    print("  fell back to reference: \(report.fallbacks.count) node(s): \(report.fallbacks.map(\.terminalSafe).joined(separator: ", "))")
                }
                print("  max abs \(format(report.maxAbsoluteError)), max rel \(format(report.maxRelativeError)): \(report.passed ? "ok" : "FAILED")")
                if let cost = costs.first(where: { $0.backend == report.backend }) { print("  " + Self.describe(cost)) }
            }
        }
        // With --json, standard output is the JSON document alone; the verdict goes to standard error.
        if json {
            FileHandle.standardError.write(Data((ok ? "parity ok\n" : "parity FAILED\n").utf8))
        } else {
            print(ok ? "parity ok" : "parity FAILED")
        }
        if !ok { throw ExitCode.failure }
    }

    private func format(_ value: Float) -> String { String(format: "%.3e", Double(value)) }

    /// The inputs: random, one per graph input from files, or, for a model whose
    /// one input is its image, one sample per photo (folders searched).
    private func samples(for model: Model) throws -> [[String: Tensor]] {
        if inputs.isEmpty { return [try ModelInputs.random(for: model)] }
        let (files, errors) = ImageFiles.expand(inputs)
        if let error = errors.first { throw ValidationError(error) }
        let photos = files.allSatisfy { ImageFiles.extensions.contains(($0 as NSString).pathExtension.lowercased()) }
        guard photos, model.graph.inputs.count == 1, files.count > 1 || files != inputs else {
            return [try ModelInputs.fromFiles(inputs, model: model, limits: pixels.limits)]
        }
        return try files.map { try ModelInputs.fromFiles([$0], model: model, limits: pixels.limits) }
    }

    /// `bf16 against f32 (kernels, 26 of 66 steps in bf16) over 12 inputs: max rel logit error 4.1e-03, top-1 12/12, top-5 11/12`.
    static func describe(_ cost: ParityCheck.PrecisionReport) -> String {
        "\(cost.precision) against f32 (\(cost.backend), \(cost.reducedSteps) of \(cost.steps) steps in \(cost.precision)) over \(cost.samples) input(s): "
            + "max rel logit error \(String(format: "%.3e", Double(cost.maxRelativeLogitError))), "
            + "top-1 \(cost.top1Agreements)/\(cost.rows), top-5 \(cost.top5Agreements)/\(cost.rows)"
    }
}

/// `fovea parity --precision bf16 --json`: the node-by-node reports and the whole-model comparison with f32.
struct PrecisionParityReport: Encodable {
    var backends: [ParityCheck.BackendReport]
    var precision: [ParityCheck.PrecisionReport]
}
