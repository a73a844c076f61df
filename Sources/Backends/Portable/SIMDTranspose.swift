import FoveaCore

/// Transpose of a float32 tensor: the output written row by row (its last
/// axis), each row gathered from the input at that axis's input stride, a
/// plain copy when the last axis stays last (attention's heads). Rows are
/// split across threads.
enum SIMDTranspose: SIMDOperatorFamily {
    static func supports(_ node: NodeContext) -> Bool {
        (try? permutation(node)) != nil
    }

    static func prepare(_ node: NodeContext) throws -> any PreparedStep {
        TransposeStep(shape: node.inputType(0)?.shape ?? [], permutation: try permutation(node))
    }

    /// The node's permutation (the reversed axes when it has none), checked against its types.
    static func permutation(_ node: NodeContext) throws -> [Int] {
        guard case .transpose(let perm) = node.op, node.outputTypes.count == 1, let input = node.inputType(0),
              input.dataType == .float32, node.outputTypes[0].dataType == .float32 else {
            throw FoveaError(.unsupported, "the simd backend runs Transpose of float32")
        }
        let rank = input.shape.count
        let permutation = perm ?? Array((0..<rank).reversed())
        guard permutation.sorted() == Array(0..<rank), node.outputTypes[0].shape == permutation.map({ input.shape[$0] }) else {
            throw FoveaError(.unsupported, "Transpose perm \(permutation) does not fit \(input.shape)")
        }
        return permutation
    }

    struct TransposeStep: PreparedStep {
        /// The output's shape.
        let outputShape: [Int]
        /// The input stride of each output axis.
        let strides: [Int]

        var algorithm: String { "transpose" }

        /// Output axis i is input axis `permutation[i]` of an input of `shape`.
        init(shape: [Int], permutation: [Int]) {
            var inputStrides = [Int](repeating: 1, count: shape.count)
            for axis in stride(from: shape.count - 2, through: 0, by: -1) {
                inputStrides[axis] = inputStrides[axis + 1] * shape[axis + 1]
            }
            outputShape = permutation.map { shape[$0] }
            strides = permutation.map { inputStrides[$0] }
        }

        func run(_ buffers: StepBuffers, context: RunContext) throws {
            let x = SIMDStepSupport.SharedInput(try buffers.input(0, "Transpose"))
            let y = SIMDStepSupport.SharedOutput(buffers.outputs[0])
            let (shape, strides) = (outputShape, self.strides)
            let rank = shape.count
            guard rank > 0 else {
                y.base[0] = x.base[0]
                return
            }
            let inner = shape[rank - 1], innerStride = strides[rank - 1]
            let rows = shape.dropLast().reduce(1, *)
            guard inner > 0, rows > 0 else { return }
            SIMDStepSupport.parallelFor(context, count: rows, work: rows * inner) { range in
                for row in range {
                    // The row's input offset: its index split over the outer output axes.
                    var rest = row, offset = 0
                    for axis in stride(from: rank - 2, through: 0, by: -1) {
                        offset += rest % shape[axis] * strides[axis]
                        rest /= shape[axis]
                    }
                    let source = x.base + offset, destination = y.base + row * inner
                    if innerStride == 1 {
                        destination.update(from: source, count: inner)
                    } else {
                        for i in 0..<inner { destination[i] = source[i * innerStride] }
                    }
                }
            }
        }
    }
}
