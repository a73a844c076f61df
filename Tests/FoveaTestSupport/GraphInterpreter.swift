import FoveaCore

/// Runs a graph node by node on owned tensors with the reference backend: no
/// plan, no arena, no views. The oracle for the executor and the memory planner.
public enum GraphInterpreter {
    /// Every value of the graph (inputs, initializers, node outputs) by name.
    public static func evaluate(_ graph: Graph, _ feeds: [String: Tensor]) throws -> [String: Tensor] {
        var values = graph.initializers.merging(feeds) { $1 }
        let types = try graph.inferTypes(inputShapes: feeds.mapValues(\.shape))
        for node in graph.nodes {
            let inputs = node.inputs.map { $0.isEmpty ? nil : values[$0] }
            let outputTypes = node.outputs.map { types[$0] ?? MemoryPlan.unnamedOutputType }
            let outputs = try ReferenceBackend.evaluate(node.op, inputs: inputs, outputTypes: outputTypes)
            for (name, tensor) in zip(node.outputs, outputs) where !name.isEmpty { values[name] = tensor }
        }
        return values
    }
}

extension GraphInterpreter {
    /// Compares a plan's outputs with the interpreter's values for every
    /// graph output: each element within `bound` × max(1, the largest
    /// |expected| of that output). Returns the first difference, or `nil`.
    public static func firstDifference(_ outputs: [String: Tensor], _ expected: [String: Tensor], graph: Graph,
                                       bound: Float) -> String? {
        for info in graph.outputs {
            guard let actual = outputs[info.name]?.floats, let wanted = expected[info.name]?.floats else {
                return "\(info.name): missing or not float32"
            }
            guard actual.count == wanted.count else { return "\(info.name): \(actual.count) elements, expected \(wanted.count)" }
            let scale = Swift.max(1, wanted.map(abs).max() ?? 0)
            for (i, (a, e)) in zip(actual, wanted).enumerated() where !(abs(a - e) <= bound * scale) {
                return "\(info.name)[\(i)]: \(a) vs \(e)"
            }
        }
        return nil
    }
}

/// Bitwise equality of float tensors (NaNs with the same payload are equal).
public func sameBits(_ a: Tensor, _ b: Tensor) -> Bool {
    guard a.shape == b.shape, a.dataType == b.dataType else { return false }
    switch (a.storage, b.storage) {
    case (.float32(let x), .float32(let y)): return x.map(\.bitPattern) == y.map(\.bitPattern)
    default: return a == b
    }
}
