import FoveaCore
import COpenBLAS

/// Gemm (`alpha · op(A) · op(B) + beta · C`) and MatMul (batched, broadcast)
/// as one `cblas_sgemm` per output matrix, on the shapes and per-matrix
/// offsets ``MatrixShape`` computes once at prepare time. The transposes
/// become leading dimensions, and `beta · C` (broadcast) is written into Y
/// first so that the GEMM accumulates onto it.
struct BLASMatrixStep: PreparedStep {
    let shape: MatrixShape
    let opName: String
    let algorithm: String

    init(_ node: NodeContext) throws {
        shape = try MatrixShape(node)
        guard Swift.max(shape.rows, shape.columns, shape.inner) < Int(Int32.max) else {
            throw FoveaError(.unsupported, "\(node.op.typeName) is too large for 32-bit BLAS indices")
        }
        opName = node.op.typeName
        let transposes = (Self.isTransposed(row: shape.aRowStride, column: shape.aColumnStride) ? " Aᵀ" : "")
            + (Self.isTransposed(row: shape.bRowStride, column: shape.bColumnStride) ? " Bᵀ" : "")
        algorithm = (shape.aOffsets.count > 1 ? "sgemm batched" : "sgemm") + transposes
    }

    /// A' read with these element strides is the transpose of a stored row-major matrix.
    private static func isTransposed(row: Int, column: Int) -> Bool { column != 1 }

    /// The CBLAS transpose flag and leading dimension of an operand with
    /// `columns` columns read with these strides. Untransposed, the leading
    /// dimension is at least `columns`, as CBLAS requires even when the row
    /// stride does not matter (a single row stored as a column).
    private static func layout(row: Int, column: Int, columns: Int) -> (CBLAS_TRANSPOSE, Int32) {
        isTransposed(row: row, column: column) ? (CblasTrans, Int32(column)) : (CblasNoTrans, Int32(Swift.max(row, columns, 1)))
    }

    func run(_ buffers: StepBuffers, context: RunContext) throws {
        let s = shape
        let a = try buffers.input(0, opName).floats, b = try buffers.input(1, opName).floats
        let y = buffers.outputs[0].floats
        let matrix = s.rows * s.columns
        var accumulate: Float = 0
        if s.cShape != nil, s.beta != 0 {
            s.writeInitial(c: try buffers.input(2, opName).floats, into: y)
            accumulate = 1
        }
        guard matrix > 0 else { return }
        if s.inner == 0 {
            if accumulate == 0 { y.update(repeating: 0, count: s.outputCount) }
            return
        }
        let (transA, lda) = Self.layout(row: s.aRowStride, column: s.aColumnStride, columns: s.inner)
        let (transB, ldb) = Self.layout(row: s.bRowStride, column: s.bColumnStride, columns: s.columns)
        BLASBackend.prepareThreads(context)
        for (index, (aOffset, bOffset)) in zip(s.aOffsets, s.bOffsets).enumerated() {
            cblas_sgemm(CblasRowMajor, transA, transB, Int32(s.rows), Int32(s.columns), Int32(s.inner),
                        s.alpha, a + aOffset, lda, b + bOffset, ldb, accumulate, y + index * matrix, Int32(s.columns))
        }
    }
}
