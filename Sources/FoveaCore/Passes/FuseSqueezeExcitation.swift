/// Makes a squeeze-and-excitation block one ``Op/squeezeExcitation(_:)`` node:
///
/// ```
/// p = GlobalAveragePool(x)
/// h = Conv1x1(p, W1, B1) with a fused activation (or none)
/// g = Conv1x1(h, W2, B2) with a fused Sigmoid or HardSigmoid
/// y = Mul(x, g)          (either order)
/// ```
///
/// It runs after ``FuseConvActivation`` has folded the activations into the
/// two convolutions. Safety: p, h and g are read once, by the next node, and
/// are not graph outputs; both convolutions are 1×1, stride 1, unpadded,
/// ungrouped, without a residual, with constant weights; the Mul multiplies
/// the pool's own input, and shapes are known and give g = [N, C, 1, 1]. The
/// node keeps the Mul's name and output and takes its place; backends then
/// never write the broadcast gate, or p and h, as tensors of the arena.
public struct FuseSqueezeExcitation: GraphPass {
    public var name: String { "FuseSqueezeExcitation" }

    /// Creates the pass. It has no settings; one value serves any number of graphs.
    public init() {}

    public func run(_ graph: inout Graph) throws -> Bool {
        var index = GraphPatternIndex(graph)
        guard let types = index.types else { return false }
        for (position, node) in graph.nodes.enumerated() where node.op == .globalAveragePool && !index.claimed.contains(position) {
            guard node.inputs.count == 1, node.outputs.count == 1, let x = node.inputs.first,
                  let xType = types[x], xType.dataType == .float32, xType.shape.count == 4,
                  let (reduceIndex, reduceNode) = index.soleConsumer(of: node.outputs[0]),
                  case .conv(let reduce) = reduceNode.op, reduceNode.inputs.first == node.outputs[0],
                  isPointwise(reduce, reduceNode, graph),
                  let (expandIndex, expandNode) = index.soleConsumer(of: reduceNode.outputs[0]),
                  case .conv(let expand) = expandNode.op, expandNode.inputs.first == reduceNode.outputs[0],
                  isPointwise(expand, expandNode, graph), isGate(expand.activation),
                  types[expandNode.outputs[0]]?.shape == [xType.shape[0], xType.shape[1], 1, 1],
                  let (mulIndex, mul) = index.soleConsumer(of: expandNode.outputs[0], { $0 == .mul }),
                  GraphPatternIndex.otherInput(of: mul, than: expandNode.outputs[0]) == x,
                  types[mul.outputs[0]] == xType,
                  index.areFree([position, reduceIndex, expandIndex, mulIndex]) else { continue }
            func operand(_ node: Node, _ i: Int) -> String { i < node.inputs.count ? node.inputs[i] : "" }
            let fused = Node(name: mul.name, op: .squeezeExcitation(SqueezeExcitationAttributes(reduce: reduce, expand: expand)),
                             inputs: [x, operand(reduceNode, 1), operand(reduceNode, 2), operand(expandNode, 1), operand(expandNode, 2)],
                             outputs: mul.outputs)
            index.claim(removing: [position, reduceIndex, expandIndex], replacing: mulIndex, with: fused)
        }
        return index.apply(to: &graph)
    }

    /// A 1×1, stride 1, unpadded, ungrouped Conv with constant weights and no residual.
    private func isPointwise(_ attributes: ConvAttributes, _ node: Node, _ graph: Graph) -> Bool {
        attributes.kernelShape.allSatisfy { $0 == 1 } && attributes.strides.allSatisfy { $0 == 1 }
            && attributes.dilations.allSatisfy { $0 == 1 } && attributes.pads.allSatisfy { $0 == 0 }
            && attributes.autoPad != .sameLower && attributes.autoPad != .sameUpper
            && attributes.group == 1 && !attributes.addsResidual && node.inputs.count >= 2
            && graph.initializers[node.inputs[1]]?.shape.count == 4
            && (node.inputs.count < 3 || node.inputs[2].isEmpty || graph.initializers[node.inputs[2]] != nil)
    }

    /// Sigmoid or HardSigmoid: a gate in [0, 1].
    private func isGate(_ activation: FusedActivation?) -> Bool {
        switch activation {
        case .sigmoid, .hardSigmoid: return true
        default: return false
        }
    }
}
