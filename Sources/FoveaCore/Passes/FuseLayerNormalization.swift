/// Recognizes LayerNormalization written out as operators, as the PyTorch
/// exporter writes it below opset 17:
///
/// ```
/// m = ReduceMean(x, axes)           d = Sub(x, m)
/// v = ReduceMean(Pow(d, 2), axes)   (or d · d)
/// n = Div(d, Sqrt(Add(v, ε)))
/// y = Add(Mul(n, γ), β)              (β optional)
/// ```
///
/// and makes it one `LayerNormalization(axis, ε)` node with inputs x, γ, β.
///
/// Safety: both reductions keep dims and reduce the same axes, which must be
/// the last axes of x (LayerNormalization normalizes `x.shape[axis...]`);
/// every intermediate is read only inside the pattern (d twice, the others
/// once) and is not a graph output; ε is a one-element constant; γ and β are
/// constants whose shape is the normalized shape, possibly with leading
/// ones (so they broadcast exactly as the Mul and Add did). Shapes must be
/// known. The node keeps the final node's name and output and takes its place.
public struct FuseLayerNormalization: GraphPass {
    public var name: String { "FuseLayerNormalization" }

    /// Creates the pass. It has no settings; one value serves any number of graphs.
    public init() {}

    public func run(_ graph: inout Graph) throws -> Bool {
        var index = GraphPatternIndex(graph)
        guard let types = index.types else { return false }
        for (position, node) in graph.nodes.enumerated() where !index.claimed.contains(position) {
            guard case .reduce(let meanAttributes) = node.op, meanAttributes.reduction == .mean, meanAttributes.keepDims,
                  node.inputs.count == 1, node.outputs.count == 1,
                  let x = node.inputs.first, let xType = types[x], xType.dataType == .float32,
                  let axis = Self.trailingAxis(meanAttributes.axes, rank: xType.shape.count) else { continue }
            let mean = node.outputs[0]
            // d = x - m, read by the square and the division only.
            guard let (subIndex, sub) = index.soleConsumer(of: mean, { $0 == .sub }), sub.inputs == [x, mean] else { continue }
            let d = sub.outputs[0]
            // Read by exactly two nodes (the square may read it twice) and not a graph output.
            guard let readers = index.consumers[d], index.reads[d] == readers.count, Set(readers).count == 2 else { continue }
            var squareIndex: Int?, divIndex: Int?
            for reader in Set(readers) where !index.claimed.contains(reader) {
                let candidate = graph.nodes[reader]
                if Self.isSquare(candidate, of: d, index) { squareIndex = reader }
                if candidate.op == .div, candidate.inputs.count == 2, candidate.inputs[0] == d { divIndex = reader }
            }
            guard let squareIndex, let divIndex, squareIndex != divIndex else { continue }
            // v = ReduceMean(d², same axes); s = Sqrt(v + ε); n = d / s.
            let square = graph.nodes[squareIndex].outputs[0]
            guard let (varianceIndex, variance) = index.soleConsumer(of: square, {
                      if case .reduce(let attributes) = $0 { return attributes == meanAttributes }
                      return false
                  }),
                  let (epsilonIndex, plusEpsilon) = index.soleConsumer(of: variance.outputs[0], { $0 == .add }),
                  let epsilonName = GraphPatternIndex.otherInput(of: plusEpsilon, than: variance.outputs[0]),
                  let epsilon = index.scalar(epsilonName), index.isScalar(epsilonName, epsilon, appliedTo: variance.outputs[0]),
                  let (sqrtIndex, _) = index.soleConsumer(of: plusEpsilon.outputs[0], { $0 == .unary(.sqrt) }),
                  graph.nodes[divIndex].inputs[1] == graph.nodes[sqrtIndex].outputs[0],
                  index.isPrivate(graph.nodes[sqrtIndex].outputs[0]) else { continue }
            // y = n · γ (+ β)
            let normalized = graph.nodes[divIndex].outputs[0]
            let normalizedShape = Array(xType.shape[axis...])
            guard let (scaleIndex, scaleNode) = index.soleConsumer(of: normalized, { $0 == .mul }),
                  let gamma = GraphPatternIndex.otherInput(of: scaleNode, than: normalized),
                  Self.isAffineParameter(gamma, normalizedShape, graph) else { continue }
            var last = scaleIndex, beta = ""
            if let (shiftIndex, shiftNode) = index.soleConsumer(of: scaleNode.outputs[0], { $0 == .add }),
               let candidate = GraphPatternIndex.otherInput(of: shiftNode, than: scaleNode.outputs[0]),
               Self.isAffineParameter(candidate, normalizedShape, graph) {
                last = shiftIndex
                beta = candidate
            }
            var removed = [position, subIndex, squareIndex, varianceIndex, epsilonIndex, sqrtIndex, divIndex, scaleIndex, last]
            removed.removeAll { $0 == last }
            guard index.areFree(removed + [last]) else { continue }
            let lastNode = graph.nodes[last]
            index.claim(removing: removed, replacing: last,
                        with: Node(name: lastNode.name, op: .layerNormalization(axis: axis, epsilon: epsilon),
                                   inputs: beta.isEmpty ? [x, gamma] : [x, gamma, beta], outputs: lastNode.outputs))
        }
        return index.apply(to: &graph)
    }

    /// The first axis when `axes` are exactly the last axes of a rank-`rank` tensor (any order, negative allowed).
    static func trailingAxis(_ axes: [Int]?, rank: Int) -> Int? {
        guard let axes, !axes.isEmpty, rank > 0 else { return nil }
        let normalized = Set(axes.map { $0 < 0 ? $0 + rank : $0 })
        guard normalized.count == axes.count, normalized.allSatisfy({ $0 >= 0 && $0 < rank }),
              let first = normalized.min(), normalized == Set(first..<rank) else { return nil }
        return first
    }

    /// `node` is `d²`: `Pow(d, 2)` (binary with a constant, or unary) or `d · d`.
    static func isSquare(_ node: Node, of d: String, _ index: GraphPatternIndex) -> Bool {
        switch node.op {
        case .pow: return node.inputs.count == 2 && node.inputs[0] == d && index.isScalar(node.inputs[1], 2, appliedTo: d)
        case .unary(.power(let exponent)): return exponent == 2 && node.inputs == [d]
        case .mul: return node.inputs == [d, d]
        default: return false
        }
    }

    /// A float constant of the normalized shape, possibly with leading ones.
    static func isAffineParameter(_ name: String, _ normalizedShape: [Int], _ graph: Graph) -> Bool {
        guard let tensor = graph.initializers[name], tensor.dataType == .float32 else { return false }
        var shape = tensor.shape
        while shape.count > normalizedShape.count, shape.first == 1 { shape.removeFirst() }
        return shape == normalizedShape
    }
}
