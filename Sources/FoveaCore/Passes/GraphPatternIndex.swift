/// What the pattern-matching passes ask of a graph: who produces a value, who
/// reads it, whether it is a scalar constant, and which nodes a rewrite has
/// already claimed in this round.
///
/// A pass builds one index per run, records each match's removed nodes and
/// replacement with ``claim(_:)``, and applies them all at the end with
/// ``apply(to:)``. Matches never share a node, so rewrites cannot conflict.
struct GraphPatternIndex {
    let graph: Graph
    /// The node index producing each value.
    let producer: [String: Int]
    /// The node indices reading each value (a node reading it twice is listed twice).
    let consumers: [String: [Int]]
    /// How many times each value is read, counting graph outputs.
    let reads: [String: Int]
    /// Every value's type, when the graph's input shapes are known (else `nil`).
    let types: [String: TensorType]?
    private(set) var claimed = Set<Int>()
    private(set) var replacements: [Int: Node] = [:]

    init(_ graph: Graph) {
        self.graph = graph
        var producer: [String: Int] = [:], consumers: [String: [Int]] = [:]
        for (index, node) in graph.nodes.enumerated() {
            for output in node.outputs where !output.isEmpty { producer[output] = index }
            for input in node.inputs where !input.isEmpty { consumers[input, default: []].append(index) }
        }
        self.producer = producer
        self.consumers = consumers
        self.reads = graph.readCounts()
        self.types = try? graph.inferTypes()
    }

    /// The node producing `value` if it has one output, is not claimed yet, and its op satisfies `test`.
    func producer(of value: String, _ test: (Op) -> Bool = { _ in true }) -> (index: Int, node: Node)? {
        guard let index = producer[value], !claimed.contains(index) else { return nil }
        let node = graph.nodes[index]
        guard node.outputs.count == 1, test(node.op) else { return nil }
        return (index, node)
    }

    /// Whether `value` is read by exactly one node input and is not a graph output:
    /// an intermediate a fused node may stop writing.
    func isPrivate(_ value: String) -> Bool {
        reads[value] == 1 && consumers[value]?.count == 1
    }

    /// The one node reading `value`, if `value` is private to it and it is unclaimed.
    func soleConsumer(of value: String, _ test: (Op) -> Bool = { _ in true }) -> (index: Int, node: Node)? {
        guard isPrivate(value), let index = consumers[value]?.first, !claimed.contains(index) else { return nil }
        let node = graph.nodes[index]
        guard node.outputs.count == 1, test(node.op) else { return nil }
        return (index, node)
    }

    /// The value of a one-element float constant (an initializer of any rank with one element).
    func scalar(_ value: String) -> Float? {
        guard let tensor = graph.initializers[value], tensor.dataType == .float32, tensor.shape.elementCount == 1,
              let floats = try? tensor.requireFloats(value) else { return nil }
        return floats.first
    }

    /// Whether `value` is a one-element constant within a relative 1e-5 of `expected`
    /// (exporters write constants such as √2 and 1/6 in float, sometimes from double).
    func isScalar(_ value: String, _ expected: Float) -> Bool {
        guard let found = scalar(value) else { return false }
        return Swift.abs(found - expected) <= 1e-5 * Swift.max(1, Swift.abs(expected))
    }

    /// ``isScalar(_:_:)``, and broadcasting the constant against `operand` gives
    /// `operand`'s shape: the constant is rank 0, or its rank is at most `operand`'s.
    func isScalar(_ value: String, _ expected: Float, appliedTo operand: String) -> Bool {
        guard isScalar(value, expected), let constant = graph.initializers[value] else { return false }
        if constant.shape.isEmpty { return true }
        guard let rank = types?[operand]?.shape.count else { return false }
        return constant.shape.count <= rank
    }

    /// For a binary node `node` (two inputs), the other input when one of them is `value`.
    static func otherInput(of node: Node, than value: String) -> String? {
        guard node.inputs.count == 2 else { return nil }
        if node.inputs[0] == value { return node.inputs[1] }
        if node.inputs[1] == value { return node.inputs[0] }
        return nil
    }

    /// Whether none of `indices` is claimed yet.
    func areFree(_ indices: [Int]) -> Bool {
        indices.allSatisfy { !claimed.contains($0) }
    }

    /// Records a match: `removed` nodes go away and the node at `index` becomes `replacement`.
    mutating func claim(removing removed: [Int], replacing index: Int, with replacement: Node) {
        claimed.formUnion(removed)
        claimed.insert(index)
        replacements[index] = replacement
    }

    /// Applies every claimed rewrite; returns whether there was any.
    func apply(to graph: inout Graph) -> Bool {
        guard !claimed.isEmpty else { return false }
        for (index, node) in replacements { graph.nodes[index] = node }
        return graph.removeNodes(at: claimed.subtracting(replacements.keys))
    }
}
