import CFoveaKernels
import FoveaCore

/// Transpose of a float32 tensor on `fovea_transpose_f32`: runs of the last
/// axis copied with memcpy when it stays last (attention's heads), 16×16 tiles
/// when it moves (ConvNeXt's NCHW ↔ NHWC, Swin's windows).
enum KernelsTranspose: KernelsOperatorFamily {
    static func supports(_ node: NodeContext) -> Bool {
        (try? permutation(node)) != nil
    }

    static func prepare(_ node: NodeContext, _ backend: KernelsBackend) throws -> any PreparedStep {
        TransposeStep(shape: node.inputType(0).map(\.shape) ?? [], permutation: try permutation(node))
    }

    /// The node's permutation (the reversed axes when it has none), checked against its types.
    static func permutation(_ node: NodeContext) throws -> [Int] {
        guard case .transpose(let perm) = node.op, node.outputTypes.count == 1, let input = node.inputType(0),
              input.dataType == .float32, node.outputTypes[0].dataType == .float32 else {
            throw FoveaError(.unsupported, "the kernels run Transpose of float32")
        }
        let rank = input.shape.count
        let permutation = perm ?? Array((0..<rank).reversed())
        guard rank <= Int(FOVEA_TRANSPOSE_MAX_RANK), permutation.sorted() == Array(0..<rank),
              node.outputTypes[0].shape == permutation.map({ input.shape[$0] }) else {
            throw FoveaError(.unsupported, "Transpose perm \(permutation) does not fit \(input.shape) (at most \(FOVEA_TRANSPOSE_MAX_RANK) axes)")
        }
        return permutation
    }

    struct TransposeStep: PreparedStep {
        /// The input's shape.
        let shape: [Int]
        /// Output axis i is input axis permutation[i].
        let permutation: [Int]

        var algorithm: String { "transpose" }

        func run(_ buffers: StepBuffers, context: RunContext) throws {
            let x = try buffers.input(0, "Transpose").floats, y = buffers.outputs[0].floats
            var pool = context.kernelThreadPool
            let sizes = shape.map { UInt($0) }, perm = permutation.map { UInt($0) }
            try KernelStatus.check(fovea_transpose_f32(sizes.count, sizes, perm, x, y, &pool), "Transpose")
        }
    }
}
