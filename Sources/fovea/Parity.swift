import ArgumentParser
import Fovea
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
        """)

    @Option(help: "The model file (.onnx).")
    var model: String

    @Option(name: .customLong("input"), help: "An input: .npy, .pb, or a photo for an image model. Default: seeded random values.")
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

    func validate() throws {
        try ThreadCount.validate(threads)
        if let backends {
            try BackendOptions.validateBackendNames(backends, option: "--backends", registry: winograd.registry)
        }
    }

    func run() throws {
        let loaded = try Model(contentsOf: model, configuration: ModelConfiguration(optimizations: optimizations.options,
                                                                                    memoryLimit: memory.limit))
        let registry = winograd.registry
        let names = backends.map(BackendOptions.backendNames) ?? registry.names
        // The reference is the baseline, not a candidate.
        let candidates = try registry.backends(named: names).filter { $0.name != ReferenceBackend.name }
        let feeds = inputs.isEmpty ? try ModelInputs.random(for: loaded) : try ModelInputs.fromFiles(inputs, model: loaded, limits: pixels.limits)
        let reports = try ParityCheck(model: loaded, threads: ThreadCount.used(threads)).run(inputs: feeds, backends: candidates)
        let ok = reports.allSatisfy(\.passed)

        if json {
            try printJSON(reports, [.sortedKeys, .prettyPrinted])
        } else {
            for report in reports {
                print("\(report.backend) (tolerance per step, at most \(report.tolerance) relative)")
                for node in report.nodes {
                    let flag = node.maxRelativeError > node.tolerance ? "  EXCEEDS \(node.tolerance)" : ""
                    print("  \(node.node.terminalSafe.padding(toLength: 28, withPad: " ", startingAt: 0)) \(node.opType.terminalSafe.padding(toLength: 18, withPad: " ", startingAt: 0)) \(node.backend.padding(toLength: 10, withPad: " ", startingAt: 0)) abs \(format(node.maxAbsoluteError))  rel \(format(node.maxRelativeError))\(flag)")
                }
                if !report.fallbacks.isEmpty {
                    print("  fell back to reference: \(report.fallbacks.count) node(s): \(report.fallbacks.map(\.terminalSafe).joined(separator: ", "))")
                }
                print("  max abs \(format(report.maxAbsoluteError)), max rel \(format(report.maxRelativeError)): \(report.passed ? "ok" : "FAILED")")
            }
        }
        print(ok ? "parity ok" : "parity FAILED")
        if !ok { throw ExitCode.failure }
    }

    private func format(_ value: Float) -> String { String(format: "%.3e", Double(value)) }
}
