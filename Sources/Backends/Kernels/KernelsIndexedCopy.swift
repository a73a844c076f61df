import FoveaCore

/// Slice and Gather (constant indices) of float32 tensors as one copy: each
/// output axis reads a list of input indices (Gather's indices flattened on
/// its axis, which leaves the row-major order unchanged), and a last axis
/// read in order is copied as one run. The shape subgraphs of the
/// transformers' attention (ViT's q/k/v split, Swin's rolled windows) hit
/// these on every block.
enum KernelsIndexedCopy: KernelsOperatorFamily {
    static func supports(_ node: NodeContext) -> Bool {
        (try? plan(node)) != nil
    }

    static func prepare(_ node: NodeContext, _ backend: KernelsBackend) throws -> any PreparedStep {
        try plan(node)
    }

    static func plan(_ node: NodeContext) throws -> IndexedCopyStep {
        guard node.outputTypes.count == 1, let input = node.inputType(0), input.dataType == .float32,
              node.outputTypes[0].dataType == .float32 else {
            throw FoveaError(.unsupported, "the kernels run Slice and Gather of float32")
        }
        let shape = input.shape
        var indices: [[Int]]
        switch node.op {
        case .slice(let starts, let ends, let axes, let steps):
            indices = try Op.sliceRanges(shape, starts: starts, ends: ends, axes: axes, steps: steps)
        case .gather(let axis):
            guard let constant = node.constant(1), let values = constant.int64s, !shape.isEmpty else {
                throw FoveaError(.unsupported, "the kernels run Gather with constant int64 indices")
            }
            let resolved = try normalizedAxis(axis, rank: shape.count)
            let size = shape[resolved]
            guard values.allSatisfy({ $0 >= -Int64(size) && $0 < Int64(size) }) else {
                throw FoveaError(.invalidArgument, "Gather indices must lie in [-\(size), \(size))")
            }
            indices = shape.map { Array(0..<$0) }
            indices[resolved] = values.map { Int($0 < 0 ? $0 + Int64(size) : $0) }
        default:
            throw FoveaError(.unsupported, "\(node.op.typeName) is not Slice or Gather")
        }
        guard indices.map(\.count).reduce(1, *) == node.outputTypes[0].shape.elementCount else {
            throw FoveaError(.shapeMismatch, "\(node.op.typeName) output is planned as \(node.outputTypes[0].shape)")
        }
        return IndexedCopyStep(inputShape: shape, indices: indices)
    }

    struct IndexedCopyStep: PreparedStep {
        /// Per input axis, the input indices output positions read, in order.
        let indices: [[Int]]
        /// The input's row-major strides.
        let strides: [Int]
        /// The last axis is read as one contiguous run (a memcpy per row).
        let lastInOrder: Bool

        init(inputShape: [Int], indices: [[Int]]) {
            self.indices = indices
            strides = inputShape.rowMajorStrides
            let last = indices.last ?? []
            lastInOrder = last.enumerated().allSatisfy { $0.element == last[0] + $0.offset }
        }

        var algorithm: String { "indexed copy" }

        func run(_ buffers: StepBuffers, context: RunContext) throws {
            let x = try buffers.input(0, "Slice"), y = buffers.outputs[0].floats
            let source = x.floats
            let rank = indices.count
            guard indices.allSatisfy({ !$0.isEmpty }) else { return }
            guard rank > 0 else { y[0] = source[0]; return }
            let last = indices[rank - 1]
            var position = [Int](repeating: 0, count: rank)
            var out = y
            while true {
                var offset = 0
                for axis in 0..<(rank - 1) { offset += indices[axis][position[axis]] * strides[axis] }
                if lastInOrder {
                    out.update(from: source + offset + last[0], count: last.count)
                } else {
                    for (j, index) in last.enumerated() { out[j] = source[offset + index] }
                }
                out += last.count
                var axis = rank - 2
                while axis >= 0 {
                    position[axis] += 1
                    if position[axis] < indices[axis].count { break }
                    position[axis] = 0
                    axis -= 1
                }
                if axis < 0 { return }
            }
        }
    }
}
