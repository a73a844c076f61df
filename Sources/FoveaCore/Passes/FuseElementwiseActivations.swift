/// Recognizes the activations exporters write out as several operators and
/// makes each one node:
///
/// - `x * Sigmoid(x)` (either operand order) → SiLU (``UnaryFunction/silu``);
/// - `Clip(x + 3, 0, 6) / 6` (or `* (1/6)`; Relu6 is `Clip(0, 6)`) → `HardSigmoid(1/6, 1/2)`;
/// - `x * HardSigmoid(x)` with those constants → HardSwish, and
///   `x * Clip(x + 3, 0, 6) / 6` (PyTorch's `x * relu6(x + 3) / 6`) → HardSwish;
/// - `Pow(x, c)` with a one-element constant exponent → ``UnaryFunction/power(exponent:)``,
///   which the optimized backends run (the binary Pow runs on the reference only).
///
/// Safety: every intermediate is read once, by the next node of the
/// pattern, and is not a graph output; constants are one-element tensors
/// whose broadcast leaves `x`'s shape unchanged (rank 0, or rank at most
/// `x`'s when shapes are known). The fused node keeps the last node's name
/// and output and takes its place, so every reader is unchanged.
public struct FuseElementwiseActivations: GraphPass {
    public var name: String { "FuseElementwiseActivations" }

    /// Creates the pass. It has no settings; one value serves any number of graphs.
    public init() {}

    public func run(_ graph: inout Graph) throws -> Bool {
        var index = GraphPatternIndex(graph)
        for (position, node) in graph.nodes.enumerated() where !index.claimed.contains(position) {
            switch node.op {
            case .mul:
                if matchGatedSelf(node, at: position, &index) { continue }
                if matchHardSigmoid(node, at: position, &index) { continue }
                _ = matchHardSwishProduct(node, at: position, &index)
            case .div:
                if matchHardSigmoid(node, at: position, &index) { continue }
                _ = matchHardSwishProduct(node, at: position, &index)
            case .pow:
                matchConstantPower(node, at: position, &index)
            default:
                continue
            }
        }
        return index.apply(to: &graph)
    }

    /// `x * Sigmoid(x)` → SiLU, `x * HardSigmoid(1/6, 1/2)(x)` → HardSwish.
    private func matchGatedSelf(_ mul: Node, at position: Int, _ index: inout GraphPatternIndex) -> Bool {
        guard mul.inputs.count == 2 else { return false }
        for side in 0..<2 {
            let gate = mul.inputs[side], x = mul.inputs[1 - side]
            guard index.isPrivate(gate), let (gateIndex, gateNode) = index.producer(of: gate),
                  gateNode.inputs == [x] else { continue }
            let fused: Op
            switch gateNode.op {
            case .sigmoid: fused = .unary(.silu)
            case .hardSigmoid(let alpha, let beta) where Self.isHardSwishGate(alpha: alpha, beta: beta): fused = .hardSwish
            default: continue
            }
            index.claim(removing: [gateIndex], replacing: position,
                        with: Node(name: mul.name, op: fused, inputs: [x], outputs: mul.outputs))
            return true
        }
        return false
    }

    /// Whether HardSigmoid(alpha, beta) is HardSwish's gate `clamp(x/6 + 1/2, 0, 1)`.
    static func isHardSwishGate(alpha: Float, beta: Float) -> Bool {
        Swift.abs(alpha - 1 / 6) <= 1e-6 && Swift.abs(beta - 0.5) <= 1e-6
    }

    /// `scaled` is `v / 6` or `v * (1/6)` (either order): the scaled value `v`.
    private func dividedBySix(_ node: Node, _ index: GraphPatternIndex) -> String? {
        guard node.inputs.count == 2 else { return nil }
        switch node.op {
        case .div:
            return index.isScalar(node.inputs[1], 6, appliedTo: node.inputs[0]) ? node.inputs[0] : nil
        case .mul:
            for side in 0..<2 where index.isScalar(node.inputs[1 - side], 1 / 6, appliedTo: node.inputs[side]) {
                return node.inputs[side]
            }
            return nil
        default:
            return nil
        }
    }

    /// `value` is `Clip(x + 3, 0, 6)` with private intermediates: x and the two nodes.
    private func relu6OfXPlusThree(_ value: String, _ index: GraphPatternIndex) -> (x: String, nodes: [Int])? {
        guard index.isPrivate(value),
              let (clipIndex, clip) = index.producer(of: value, {
                  if case .clip(let lower, let upper) = $0 { return lower == 0 && upper == 6 }
                  return false
              }),
              clip.inputs.count >= 1, index.isPrivate(clip.inputs[0]),
              let (addIndex, add) = index.producer(of: clip.inputs[0], { $0 == .add }), add.inputs.count == 2 else { return nil }
        for side in 0..<2 where index.isScalar(add.inputs[1 - side], 3, appliedTo: add.inputs[side]) {
            return (add.inputs[side], [clipIndex, addIndex])
        }
        return nil
    }

    /// `Clip(x + 3, 0, 6) / 6` → HardSigmoid(1/6, 1/2).
    private func matchHardSigmoid(_ node: Node, at position: Int, _ index: inout GraphPatternIndex) -> Bool {
        guard let clipped = dividedBySix(node, index), let (x, nodes) = relu6OfXPlusThree(clipped, index),
              index.areFree(nodes) else { return false }
        index.claim(removing: nodes, replacing: position,
                    with: Node(name: node.name, op: .hardSigmoid(alpha: 1 / 6, beta: 0.5), inputs: [x], outputs: node.outputs))
        return true
    }

    /// `(x * Clip(x + 3, 0, 6)) / 6` → HardSwish.
    private func matchHardSwishProduct(_ node: Node, at position: Int, _ index: inout GraphPatternIndex) -> Bool {
        guard let product = dividedBySix(node, index), index.isPrivate(product),
              let (mulIndex, mul) = index.producer(of: product, { $0 == .mul }), mul.inputs.count == 2 else { return false }
        for side in 0..<2 {
            guard let (x, nodes) = relu6OfXPlusThree(mul.inputs[side], index), x == mul.inputs[1 - side],
                  index.areFree(nodes + [mulIndex]) else { continue }
            index.claim(removing: nodes + [mulIndex], replacing: position,
                        with: Node(name: node.name, op: .hardSwish, inputs: [x], outputs: node.outputs))
            return true
        }
        return false
    }

    /// `Pow(x, c)` with a one-element constant c that keeps x's shape → `x ^ c` as a unary function.
    private func matchConstantPower(_ node: Node, at position: Int, _ index: inout GraphPatternIndex) {
        guard node.inputs.count == 2, let exponent = index.scalar(node.inputs[1]),
              index.isScalar(node.inputs[1], exponent, appliedTo: node.inputs[0]),
              index.types?[node.inputs[0]]?.dataType == .float32 else { return }
        index.claim(removing: [], replacing: position,
                    with: Node(name: node.name, op: .unary(.power(exponent: exponent)), inputs: [node.inputs[0]], outputs: node.outputs))
    }
}
