import ArgumentParser
import Fovea
import Foundation

struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Describe a model: inputs, outputs, metadata, operators, parameters, multiply-adds.")

    @Option(help: "The model file (.onnx).")
    var model: String

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        let summary = try ModelSummary(modelAt: model)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(summary), as: UTF8.self))
        } else {
            print(summary.text)
        }
    }
}
