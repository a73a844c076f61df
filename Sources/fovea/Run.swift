import ArgumentParser
@_spi(Internals) import Fovea
import FoveaTools
import Foundation

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a model on raw tensors.",
        discussion: """
        Inputs are given in the order of the model's graph inputs, as NumPy .npy \
        files (float32, int64 or bool, C order) or ONNX TensorProto .pb files. \
        Outputs are written as .npy, in the order of the model's graph outputs.
        """)

    @Option(help: "The model file (.onnx).")
    var model: String

    @Option(name: .customLong("input"), help: "An input tensor file (.npy or .pb); repeat for each graph input.")
    var inputs: [String] = []

    @Option(name: .customLong("output"), help: "Where to write an output (.npy); repeat for each graph output.")
    var outputs: [String] = []

    @OptionGroup var backend: BackendOptions
    @OptionGroup var optimizations: OptimizationFlags

    func run() throws {
        let loaded = try Model(contentsOfFile: model, configuration: backend.configuration(optimizations))
        let graph = loaded.graph
        guard inputs.count == graph.inputs.count else {
            throw ValidationError("the model has \(graph.inputs.count) input(s) (\(ModelInputs.inputNames(loaded))); got \(inputs.count) --input")
        }
        guard outputs.count == graph.outputs.count else {
            throw ValidationError("the model has \(graph.outputs.count) output(s) (\(graph.outputs.map(\.name.terminalSafe).joined(separator: ", "))); got \(outputs.count) --output")
        }
        var feeds: [String: Tensor] = [:]
        for (input, path) in zip(graph.inputs, inputs) {
            feeds[input.name] = try ModelInputs.tensor(at: path)
        }
        let results = try loaded.predict(feeds)
        for (output, path) in zip(graph.outputs, outputs) {
            guard let tensor = results[output.name] else {
                throw FoveaError(.invalidModel, "the model produced no output '\(output.name)'")
            }
            try NumpyFile.write(tensor, to: path)
        }
    }
}
