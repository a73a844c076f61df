import ArgumentParser
@_spi(Internals) import Fovea
import FoveaTools
import Foundation
import FoveaCore

struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Describe a model: inputs, outputs, metadata, operators, parameters, multiply-adds.",
        discussion: """
        --optimized prints the graph after the graph passes; --plan prints the \
        execution plan (backend, algorithm and memory action of every node) and \
        the arena's size; with --json, the memory plan in full (arena_bytes, \
        lower_bound_bytes, naive_bytes, scratch_bytes, every value's offset, \
        size and steps); --svg FILE draws the arena. A model using operators \
        Fovea does not read gets the list of all of them (count, opset, nodes) \
        and a non-zero exit; --ops lists the ONNX operators Fovea reads, with \
        their opsets, and needs no model.
        """)

    @Option(help: "The model file (.onnx or .mlmodel).")
    var model: String?

    @Flag(help: "List the ONNX operators Fovea reads, with the opsets of each.")
    var ops = false

    @Flag(help: "Print JSON.")
    var json = false

    @Flag(help: "Show the execution plan: the backend, algorithm and memory action of every node, and the arena.")
    var plan = false

    @Flag(help: "Show the graph after the graph passes (see --no-fold-bn, --no-fuse).")
    var optimized = false

    @Flag(help: "List the values `fovea train --feature-layer` can read features from, with their widths; the default is marked.")
    var featureLayers = false

    @Option(help: "With --plan: write a picture of the arena (steps × bytes) to this SVG file.")
    var svg: String?

    @Option(help: "With --plan: the batch size to plan for (default: the model's declared one).")
    var batch: Int?

    @OptionGroup var backend: BackendOptions
    @OptionGroup var optimizations: OptimizationFlags

    func validate() throws {
        if ops {
            if model != nil || plan || optimized { throw ValidationError("--ops takes no model and no other mode") }
            return
        }
        guard model != nil else { throw ValidationError("give --model FILE (or --ops)") }
        if svg != nil && !plan { throw ValidationError("--svg needs --plan") }
        if let batch, batch < 1 { throw ValidationError("--batch must be at least 1") }
        if plan && optimized { throw ValidationError("choose one of --plan and --optimized") }
        if featureLayers && (plan || optimized) { throw ValidationError("choose one of --feature-layers, --plan and --optimized") }
    }

    /// The model path; ``validate()`` has checked that it is given.
    private var modelPath: String { model ?? "" }

    func run() throws {
        if ops { return try printSupportedOperators() }
        try reportUnsupportedOperators()
        if featureLayers { return try printFeatureLayers(modelAt: modelPath, json: json) }
        if plan { return try printPlan() }
        if optimized { return try printOptimizedGraph() }
        let summary = try ModelSummary(modelAt: modelPath)
        if json {
            try printJSON(summary, [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
        } else {
            print(summary.text)
        }
    }

    private func printOptimizedGraph() throws {
        let graph = try Model(contentsOfFile: modelPath, configuration: backend.configuration(optimizations)).graph
        let nodes = graph.nodes.map { node in
            OptimizedNode(name: node.name, op: Self.describe(node.op), inputs: node.inputs, outputs: node.outputs)
        }
        if json {
            try printJSON(nodes, [.sortedKeys, .prettyPrinted])
            return
        }
        for node in nodes {
            print(SafeText.escaped("\(node.name.padding(toLength: 28, withPad: " ", startingAt: 0)) \(node.op.padding(toLength: 26, withPad: " ", startingAt: 0)) \(node.inputs.joined(separator: ", ")) -> \(node.outputs.joined(separator: ", "))"))
        }
        print("\(nodes.count) nodes, \(graph.initializers.count) initializers")
    }

    private func printPlan() throws {
        let loaded = try Model(contentsOfFile: modelPath, configuration: backend.configuration(optimizations))
        var shapes: [String: [Int]] = [:]
        if let batch {
            for input in loaded.graph.inputs {
                guard var shape = input.knownShape, !shape.isEmpty else {
                    throw ValidationError("--batch needs every input's shape declared; '\(input.name.terminalSafe)' has \(input.shapeDescription)")
                }
                shape[0] = batch
                shapes[input.name] = shape
            }
        }
        let plan = try loaded.plan(inputShapes: shapes)
        let report = PlanReport(plan)
        if let svg {
            try ArenaDiagram.svg(plan, title: (modelPath as NSString).lastPathComponent)
                .write(toFile: svg, atomically: true, encoding: .utf8)
        }
        if json {
            try printJSON(report, [.sortedKeys, .prettyPrinted])
            return
        }
        // A step computes in integer when it writes 8-bit values (QuantizeLinear aside, which converts float32).
        let quantizingOps = ["QuantizeLinear", "DequantizeLinear", "DynamicQuantizeLinear"]
        let outputsByNode = Dictionary(plan.graph.nodes.map { ($0.name, $0.outputs) }, uniquingKeysWith: { first, _ in first })
        let isInteger = { (a: ExecutionPlan.Assignment) -> Bool in
            guard !quantizingOps.contains(a.opType), let outputs = outputsByNode[a.node], !outputs.isEmpty else { return false }
            return outputs.allSatisfy { plan.valueTypes[$0]?.dataType.quantizedRange != nil || plan.valueTypes[$0]?.dataType == .int32 }
        }
        for (a, step) in zip(plan.assignments, report.steps) {
            var note = a.isFallback ? "  (fallback: the requested backend cannot run it)" : ""
            if isInteger(a) { note += "  (integer)" }
            let memory = step.memory == "run" ? "" : "  [\(step.memory)]"
            print(SafeText.escaped("\(a.node.padding(toLength: 28, withPad: " ", startingAt: 0)) \(a.opType.padding(toLength: 18, withPad: " ", startingAt: 0)) \(a.backend.padding(toLength: 10, withPad: " ", startingAt: 0)) \(a.precision.rawValue.padding(toLength: 5, withPad: " ", startingAt: 0)) \(a.algorithm)\(memory)\(note)"))
        }
        if plan.precision != .f32 {
            let reduced = plan.assignments.filter { $0.precision == plan.precision }.count
            print("precision \(plan.precision): \(reduced) of \(plan.assignments.count) steps; the others run in f32")
        }
        let quantizing = plan.assignments.filter { quantizingOps.contains($0.opType) }.count
        let integer = plan.assignments.filter(isInteger).count
        if quantizing + integer > 0 {
            // The integer passes made integer steps; the other constant DequantizeLinear nodes were folded into f32 weights at load.
            print("quantized model: \(quantizing) (de)quantize steps, \(integer) integer steps; the other \(plan.assignments.count - quantizing - integer) steps compute in f32")
        }
        let fallbacks = plan.assignments.filter(\.isFallback).count
        if fallbacks > 0 { print("\(fallbacks) node(s) fell back to the reference backend") }
        print("arena \(report.arenaBytes) bytes (lower bound \(report.lowerBoundBytes), no planning \(report.naiveBytes), scratch \(report.scratchBytes), planned for \(report.maxThreads) thread(s))")
    }

    private func printSupportedOperators() throws {
        if json {
            let table = ONNXOperatorSupport.opsets.mapValues { ["first": $0.lowerBound, "last": $0.upperBound] }
            try printJSON(table, [.sortedKeys, .prettyPrinted])
            return
        }
        ONNXOperatorSupport.listing.forEach { print($0) }
        print("\(ONNXOperatorSupport.opsets.count) ONNX operators (default domain, opsets shown are the ones Fovea reads)")
    }

    /// Lists every operator the model uses that Fovea does not read, and fails.
    private func reportUnsupportedOperators() throws {
        let unsupported = try ModelFile.unsupportedOperators(ofFileAt: modelPath)
        guard !unsupported.isEmpty else { return }
        if json {
            try printJSON(["unsupportedOperators": unsupported], [.sortedKeys, .prettyPrinted])
        } else {
            print("unsupported operators (\(unsupported.count)):")
            for op in unsupported {
                // Operator and node names come from the file: escaped, as in every other listing.
                print(SafeText.escaped("  \(op.opType.padding(toLength: 24, withPad: " ", startingAt: 0)) opset \(op.opset)  ×\(op.count)  first at node '\(op.nodes[0])'"))
            }
        }
        throw ExitCode.failure
    }

    /// `Conv +relu`, `Conv +add +relu`, `Concat(axis 1)`, or the op type.
    static func describe(_ op: Op) -> String {
        switch op {
        case .conv(let attributes):
            return "Conv" + attributes.fusionSuffix
        case .concat(let axis):
            return "Concat(axis \(axis))"
        default:
            return op.typeName
        }
    }

    struct OptimizedNode: Codable {
        var name: String
        var op: String
        var inputs: [String]
        var outputs: [String]
    }
}
