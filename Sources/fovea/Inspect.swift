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

    @Flag(help: "Show the execution plan: the backend and algorithm of every node.")
    var plan = false

    @OptionGroup var backend: BackendOptions

    func run() throws {
        if plan { return try printPlan() }
        let summary = try ModelSummary(modelAt: model)
        if json {
            try printJSON(summary, [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
        } else {
            print(summary.text)
        }
    }

    private func printPlan() throws {
        let plan = try Model(contentsOf: model, configuration: backend.configuration).plan()
        if json {
            try printJSON(plan.assignments, [.sortedKeys, .prettyPrinted])
            return
        }
        for a in plan.assignments {
            let note = a.isFallback ? "  (fallback: the requested backend cannot run it)" : ""
            print("\(a.node.padding(toLength: 28, withPad: " ", startingAt: 0)) \(a.opType.padding(toLength: 18, withPad: " ", startingAt: 0)) \(a.backend.padding(toLength: 10, withPad: " ", startingAt: 0)) \(a.algorithm)\(note)")
        }
        let fallbacks = plan.assignments.filter(\.isFallback).count
        if fallbacks > 0 { print("\(fallbacks) node(s) fell back to the reference backend") }
    }
}
