import CFoveaKernels
import FoveaCore

/// Gemm and MatMul with many rows on the C GEMM (`fovea_matmul_f32`): the
/// rows of A are tokens, packed block by block into the microkernel's row
/// panels; C is written row-major. A constant B (a transformer's weights) is
/// packed once here, with α folded in, and A's batch axes become more rows;
/// a B that is an activation (attention's Q·Kᵀ and weights·V, batched over
/// heads) is packed per output matrix at run time into the workspace.
struct PackedMatMulStep: PreparedStep {
    let shape: MatrixShape
    let algorithm: String
    private let opName: String
    /// B packed once, when it is a constant without batch axes.
    private let packedB: PackedWeights?
    /// `β·C` per output column, for a constant C that broadcasts over rows.
    private let bias: [Float]?

    /// Takes a node `KernelsMatrix` gave it: float32 operands, A not transposed,
    /// C absent or a constant per-column vector (or scalar).
    init(node: NodeContext, shape: MatrixShape) throws {
        self.shape = shape
        opName = node.op.typeName
        guard shape.aColumnStride == 1, shape.rows >= 1, shape.columns >= 1, shape.inner >= 1,
              shape.rows <= Int(FOVEA_KERNELS_MAX_EXTENT) else {
            throw FoveaError(.unsupported, "the kernels' matmul runs A untransposed and non-empty")
        }
        bias = try Self.bias(node, shape)
        if let b = node.constant(1), shape.bOffsets.allSatisfy({ $0 == 0 }) {
            let values = try b.requireFloats("B")
            let k = shape.inner, n = shape.columns
            let floats = fovea_matmul_packed_b_floats(k, n)
            guard floats > 0 else { throw FoveaError(.shapeMismatch, "\(opName): B \(k)×\(n) is too large") }
            let (rowStride, columnStride, alpha) = (shape.bRowStride, shape.bColumnStride, shape.alpha)
            packedB = try PackedWeights(byteCount: floats * MemoryLayout<Float>.stride) { bytes, _ in
                try values.withUnsafeBufferPointer { source in
                    try KernelStatus.check(
                        fovea_matmul_pack_b(k, n, source.baseAddress, rowStride, columnStride, alpha,
                                            bytes.assumingMemoryBound(to: Float.self), floats),
                        "\(node.op.typeName) weight packing")
                }
            }
        } else {
            packedB = nil
        }
        algorithm = "matmul " + String(cString: fovea_gemm_microkernel_name(nil)) + (packedB == nil ? "" : " packed B")
    }

    /// `β·C` broadcast to one value per column, or nil without a C term.
    private static func bias(_ node: NodeContext, _ shape: MatrixShape) throws -> [Float]? {
        guard let cShape = shape.cShape, shape.beta != 0 else { return nil }
        guard let c = node.constant(2), cShape.count < 2 || cShape[0] == 1 else {
            throw FoveaError(.unsupported, "the kernels' matmul takes a constant C of one row")
        }
        let values = try c.requireFloats("C")
        return (0..<shape.columns).map { shape.beta * values[values.count == 1 ? 0 : $0] }
    }

    /// Rows of one call: a constant B multiplies every batch of A at once (consecutive matrices).
    private var flattenedRows: Int? {
        guard packedB != nil else { return nil }
        let matrix = shape.rows * shape.inner
        return shape.aOffsets.enumerated().allSatisfy({ $0.element == $0.offset * matrix })
            ? shape.rows * shape.aOffsets.count : nil
    }

    func workspaceBytes(threads: Int) -> Int {
        let floats: Int
        if let packedB {
            floats = fovea_matmul_workspace_floats(packedB.matrixFloats, flattenedRows ?? shape.rows, max(1, threads))
        } else {
            floats = fovea_matmul_workspace_bound_floats(shape.rows, shape.inner, shape.columns, max(1, threads))
        }
        return max(1, floats) * MemoryLayout<Float>.stride
    }

    func run(_ buffers: StepBuffers, context: RunContext) throws {
        let s = shape, op = opName
        let a = try buffers.input(0, op).floats, y = buffers.outputs[0].floats
        let threads = max(1, context.threads)
        var pool = context.kernelThreadPool
        let workspace = try buffers.floatWorkspace(op)
        let workspaceFloats = workspaceBytes(threads: threads) / MemoryLayout<Float>.stride
        try withOptionalPointer(bias) { bias in
            if let packedB {
                if let rows = flattenedRows {
                    try KernelStatus.check(
                        fovea_matmul_f32(rows, a, s.inner, packedB.matrixFloats, bias, y, s.columns, nil, workspace,
                                         workspaceFloats, &pool), op)
                    return
                }
                for (index, aOffset) in s.aOffsets.enumerated() {
                    try KernelStatus.check(
                        fovea_matmul_f32(s.rows, a + aOffset, s.inner, packedB.matrixFloats, bias,
                                         y + index * s.rows * s.columns, s.columns, nil, workspace, workspaceFloats,
                                         &pool), op)
                }
                return
            }
            // B is an activation: pack each of its matrices (once per run of equal offsets) into the workspace.
            let b = try buffers.input(1, op).floats
            let packedFloats = fovea_matmul_packed_b_floats(s.inner, s.columns)
            let packed = workspace, scratch = workspace + packedFloats
            var packedOffset: Int?
            for (index, (aOffset, bOffset)) in zip(s.aOffsets, s.bOffsets).enumerated() {
                if packedOffset != bOffset {
                    try KernelStatus.check(
                        fovea_matmul_pack_b(s.inner, s.columns, b + bOffset, s.bRowStride, s.bColumnStride, s.alpha,
                                            packed, packedFloats), op)
                    packedOffset = bOffset
                }
                try KernelStatus.check(
                    fovea_matmul_f32(s.rows, a + aOffset, s.aRowStride, packed, bias, y + index * s.rows * s.columns,
                                     s.columns, nil, scratch, workspaceFloats - packedFloats, &pool), op)
            }
        }
    }
}

extension PackedWeights {
    /// The packed buffer as the floats `fovea_matmul_pack_b` wrote.
    var matrixFloats: UnsafeMutablePointer<Float> { bytes.assumingMemoryBound(to: Float.self) }
}
