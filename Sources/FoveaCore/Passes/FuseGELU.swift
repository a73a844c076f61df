/// Recognizes GELU written out as operators and makes it one
/// `Gelu` node (``UnaryFunction/gelu(tanhApproximation:)``):
///
/// - the erf form `0.5 · x · (1 + Erf(x / √2))`, with `x / 1.4142135` or
///   `x · 0.70710678` inside, as PyTorch (`(x · (erf + 1)) · 0.5`), TensorFlow
///   and hand-written models associate it: `(x · a) · 0.5`, `(x · 0.5) · a`,
///   `x · (a · 0.5)`, `(x · a) / 2`, with `a = 1 + Erf(…)` in either order;
/// - the tanh form `0.5 · x · (1 + Tanh(√(2/π) · (x + 0.044715 · x³)))`, with
///   `x³` as `Pow(x, 3)` (or its unary form) or `x · x · x`, and the same outer
///   associations.
///
/// Every intermediate must be read once, by the next node of the pattern, and
/// not be a graph output (except `x`, which the pattern reads several times);
/// constants are one-element tensors that keep `x`'s shape. The Gelu node keeps
/// the last node's name and output and takes its place.
public struct FuseGELU: GraphPass {
    public var name: String { "FuseGELU" }

    /// Creates the pass. It has no settings; one value serves any number of graphs.
    public init() {}

    public func run(_ graph: inout Graph) throws -> Bool {
        var index = GraphPatternIndex(graph)
        for (position, node) in graph.nodes.enumerated() where !index.claimed.contains(position) {
            guard case .unary(let function) = node.op, node.inputs.count == 1, node.outputs.count == 1 else { continue }
            let inner: (x: String, nodes: [Int])?
            let tanhApproximation: Bool
            switch function {
            case .erf:
                inner = erfArgument(node.inputs[0], index)
                tanhApproximation = false
            case .tanh:
                inner = tanhArgument(node.inputs[0], index)
                tanhApproximation = true
            default:
                continue
            }
            guard let inner, let (outer, last) = outerProduct(of: node.outputs[0], x: inner.x, index) else { continue }
            let nodes = inner.nodes + [position] + outer
            guard index.areFree(nodes + [last]) else { continue }
            let lastNode = graph.nodes[last]
            index.claim(removing: nodes, replacing: last,
                        with: Node(name: lastNode.name, op: .unary(.gelu(tanhApproximation: tanhApproximation)),
                                   inputs: [inner.x], outputs: lastNode.outputs))
        }
        return index.apply(to: &graph)
    }

    /// `value` is `x / √2` or `x · (1/√2)` (private): x and the node.
    private func erfArgument(_ value: String, _ index: GraphPatternIndex) -> (x: String, nodes: [Int])? {
        guard index.isPrivate(value), let (scaleIndex, scale) = index.producer(of: value), scale.inputs.count == 2 else { return nil }
        switch scale.op {
        case .div where index.isScalar(scale.inputs[1], Float(2).squareRoot(), appliedTo: scale.inputs[0]):
            return (scale.inputs[0], [scaleIndex])
        case .mul:
            for side in 0..<2 where index.isScalar(scale.inputs[1 - side], 1 / Float(2).squareRoot(), appliedTo: scale.inputs[side]) {
                return (scale.inputs[side], [scaleIndex])
            }
            return nil
        default:
            return nil
        }
    }

    /// `value` is `√(2/π) · (x + 0.044715 · x³)` (every intermediate private): x and the nodes.
    private func tanhArgument(_ value: String, _ index: GraphPatternIndex) -> (x: String, nodes: [Int])? {
        guard index.isPrivate(value), let (scaleIndex, scale) = index.producer(of: value, { $0 == .mul }),
              scale.inputs.count == 2 else { return nil }
        for side in 0..<2 {
            let sum = scale.inputs[side]
            guard index.isScalar(scale.inputs[1 - side], 0.7978845608, appliedTo: sum), index.isPrivate(sum),
                  let (sumIndex, add) = index.producer(of: sum, { $0 == .add }), add.inputs.count == 2 else { continue }
            for order in 0..<2 {
                let x = add.inputs[order], scaledCube = add.inputs[1 - order]
                guard index.isPrivate(scaledCube),
                      let (cubeScaleIndex, cubeScale) = index.producer(of: scaledCube, { $0 == .mul }),
                      cubeScale.inputs.count == 2 else { continue }
                for cubeSide in 0..<2 {
                    let cube = cubeScale.inputs[cubeSide]
                    guard index.isScalar(cubeScale.inputs[1 - cubeSide], 0.044715, appliedTo: cube),
                          let cubeNodes = self.cube(cube, of: x, index) else { continue }
                    return (x, [scaleIndex, sumIndex, cubeScaleIndex] + cubeNodes)
                }
            }
        }
        return nil
    }

    /// `value` is x³ (private): `Pow(x, 3)`, its unary form, `x · (x · x)` or `(x · x) · x`. The nodes.
    private func cube(_ value: String, of x: String, _ index: GraphPatternIndex) -> [Int]? {
        guard index.isPrivate(value), let (cubeIndex, node) = index.producer(of: value) else { return nil }
        switch node.op {
        case .pow where node.inputs.count == 2 && node.inputs[0] == x && index.isScalar(node.inputs[1], 3, appliedTo: x):
            return [cubeIndex]
        case .unary(.power(let exponent)) where exponent == 3 && node.inputs == [x]:
            return [cubeIndex]
        case .mul where node.inputs.count == 2:
            for side in 0..<2 where node.inputs[1 - side] == x {
                let square = node.inputs[side]
                if index.isPrivate(square), let (squareIndex, _) = index.producer(of: square, { $0 == .mul }),
                   index.graph.nodes[squareIndex].inputs == [x, x] {
                    return [cubeIndex, squareIndex]
                }
            }
            return nil
        default:
            return nil
        }
    }

    /// From `t` (the Erf or Tanh output): `a = t + 1` then `0.5 · x · a` in one of
    /// its associations. The removed nodes other than the last, and the last one.
    private func outerProduct(of t: String, x: String, _ index: GraphPatternIndex) -> (nodes: [Int], last: Int)? {
        guard let (plusIndex, plus) = index.soleConsumer(of: t, { $0 == .add }),
              let one = GraphPatternIndex.otherInput(of: plus, than: t), index.isScalar(one, 1, appliedTo: t) else { return nil }
        let a = plus.outputs[0]
        guard let (firstIndex, first) = index.soleConsumer(of: a, { $0 == .mul }),
              let other = GraphPatternIndex.otherInput(of: first, than: a) else { return nil }
        let m = first.outputs[0]
        if other == x {
            // (x · a) · 0.5 or (x · a) / 2
            guard let (halfIndex, half) = index.soleConsumer(of: m), isHalving(half, of: m, index) else { return nil }
            return ([plusIndex, firstIndex], halfIndex)
        }
        if index.isScalar(other, 0.5, appliedTo: a) {
            // x · (a · 0.5)
            guard let (lastIndex, last) = index.soleConsumer(of: m, { $0 == .mul }),
                  GraphPatternIndex.otherInput(of: last, than: m) == x else { return nil }
            return ([plusIndex, firstIndex], lastIndex)
        }
        // (x · 0.5) · a
        guard index.isPrivate(other), let (halfIndex, half) = index.producer(of: other), isHalving(half, of: x, index) else { return nil }
        return ([plusIndex, halfIndex], firstIndex)
    }

    /// Whether `node` is `value · 0.5` (either order) or `value / 2`.
    private func isHalving(_ node: Node, of value: String, _ index: GraphPatternIndex) -> Bool {
        guard node.inputs.count == 2 else { return false }
        switch node.op {
        case .mul:
            guard let other = GraphPatternIndex.otherInput(of: node, than: value) else { return false }
            return index.isScalar(other, 0.5, appliedTo: value)
        case .div:
            return node.inputs[0] == value && index.isScalar(node.inputs[1], 2, appliedTo: value)
        default:
            return false
        }
    }
}
