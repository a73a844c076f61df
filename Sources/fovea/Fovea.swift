import ArgumentParser

@main
struct FoveaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fovea",
        abstract: "Run convolutional image classifiers (ONNX) on the CPU.",
        version: "0.1.0",
        subcommands: [Classify.self, Prepare.self, Inspect.self, Run.self, Parity.self, Bench.self, Conformance.self]
    )
}
