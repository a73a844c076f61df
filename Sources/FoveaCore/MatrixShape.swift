/// Sizes and strides of a Gemm or (batched) MatMul, shared by the backends
/// that lower them to GEMM calls. Transposes are strides; MatMul's broadcast
/// batch becomes one (A, B) matrix offset pair per output matrix, computed
/// once here rather than per run.
public struct MatrixShape: Sendable, Equatable {
    /// The product's dimensions: `rows × inner` times `inner × columns`, for each output matrix.
    public var rows: Int, columns: Int, inner: Int
    /// The operands' shapes as the node receives them (A, B, and C for a Gemm with one).
    public var inputShapes: [[Int]]
    /// The output's shape: MatMul's broadcast batch axes, then `rows × columns`
    /// (without the axis a 1-D operand does not have).
    public var outputShape: [Int]
    /// Element strides of A' and B' (`A'[i, p] = a[i * aRowStride + p * aColumnStride]`).
    public var aRowStride: Int, aColumnStride: Int, bRowStride: Int, bColumnStride: Int
    /// Per output matrix: the offsets of its A and B matrices (MatMul batches).
    public var aOffsets: [Int] = [0], bOffsets: [Int] = [0]
    /// Gemm's scale of the product and of C (1 and 0 for MatMul).
    public var alpha: Float = 1, beta: Float = 0
    /// Gemm's C shape, broadcast to `rows × columns`.
    public var cShape: [Int]?

    /// The number of output elements: every output matrix's `rows × columns`.
    public var outputCount: Int { aOffsets.count * rows * columns }

    /// The shape of a Gemm with attributes `g` over A, B and an optional C.
    ///
    /// - Throws: ``FoveaError/Kind/shapeMismatch`` if A or B is not 2-D, their inner
    ///   dimensions differ, or C does not broadcast to `rows × columns`.
    public init(gemm g: GemmAttributes, a: [Int], b: [Int], c: [Int]?) throws {
        guard a.count == 2, b.count == 2 else {
            throw FoveaError(.shapeMismatch, "Gemm needs 2-D A and B; found \(a) and \(b)")
        }
        rows = g.transA ? a[1] : a[0]
        inner = g.transA ? a[0] : a[1]
        columns = g.transB ? b[0] : b[1]
        let bInner = g.transB ? b[1] : b[0]
        guard bInner == inner else {
            throw FoveaError(.shapeMismatch, "Gemm A' is \(rows)×\(inner) but B' is \(bInner)×\(columns)")
        }
        (aRowStride, aColumnStride) = g.transA ? (1, a[1]) : (a[1], 1)
        (bRowStride, bColumnStride) = g.transB ? (1, b[1]) : (b[1], 1)
        alpha = g.alpha
        beta = g.beta
        if let c {
            guard c.count <= 2, (try? broadcastShape(c, [rows, columns])) == [rows, columns] else {
                throw FoveaError(.shapeMismatch, "Gemm C \(c) does not broadcast to \([rows, columns])")
            }
            cShape = c
        }
        inputShapes = [a, b] + (c.map { [$0] } ?? [])
        outputShape = [rows, columns]
    }

    /// The shape of a MatMul of `a` by `b`, with NumPy's rules: a 1-D operand is a
    /// row (A) or a column (B) vector, and leading axes broadcast.
    ///
    /// - Throws: ``FoveaError/Kind/shapeMismatch`` if an operand is a scalar, the inner
    ///   dimensions differ or the batch axes do not broadcast.
    public init(matMul a: [Int], b: [Int]) throws {
        guard a.count >= 1, b.count >= 1 else {
            throw FoveaError(.shapeMismatch, "MatMul operands must have rank >= 1; found \(a) and \(b)")
        }
        let lhs = a.count == 1 ? [1] + a : a
        let rhs = b.count == 1 ? b + [1] : b
        rows = lhs[lhs.count - 2]
        inner = lhs[lhs.count - 1]
        columns = rhs[rhs.count - 1]
        guard rhs[rhs.count - 2] == inner else {
            throw FoveaError(.shapeMismatch, "MatMul inner sizes differ: \(a) and \(b)")
        }
        let lhsBatch = Array(lhs.dropLast(2)), rhsBatch = Array(rhs.dropLast(2))
        let batch = try broadcastShape(lhsBatch, rhsBatch)
        aOffsets = Self.offsets(lhsBatch, in: batch, matrixSize: rows * inner)
        bOffsets = Self.offsets(rhsBatch, in: batch, matrixSize: inner * columns)
        (aRowStride, aColumnStride, bRowStride, bColumnStride) = (inner, 1, columns, 1)
        inputShapes = [a, b]
        outputShape = batch + (a.count == 1 ? [] : [rows]) + (b.count == 1 ? [] : [columns])
    }

    /// The offset of an operand's matrix for each index of the broadcast batch, row-major.
    private static func offsets(_ operand: [Int], in batch: [Int], matrixSize: Int) -> [Int] {
        let padded = [Int](repeating: 1, count: batch.count - operand.count) + operand
        var strides = [Int](repeating: 0, count: batch.count)
        var stride = 1
        for axis in batch.indices.reversed() {
            strides[axis] = padded[axis] == 1 ? 0 : stride
            stride *= padded[axis]
        }
        return (0..<batch.elementCount).map { flat in
            var remainder = flat, offset = 0
            for axis in batch.indices.reversed() {
                offset += (remainder % batch[axis]) * strides[axis]
                remainder /= batch[axis]
            }
            return offset * matrixSize
        }
    }

    /// The shapes of a Gemm or MatMul node on float32 operands, checked
    /// against its planned output.
    public init(_ node: NodeContext) throws {
        guard let a = node.inputType(0), let b = node.inputType(1), let y = node.outputTypes.first,
              a.dataType == .float32, b.dataType == .float32, y.dataType == .float32 else {
            throw FoveaError(.unsupported, "\(node.op.typeName) runs on float32 matrices")
        }
        switch node.op {
        case .gemm(let attributes):
            let c = node.inputType(2)
            if let c, c.dataType != .float32 {
                throw FoveaError(.unsupported, "Gemm C must be float32")
            }
            self = try MatrixShape(gemm: attributes, a: a.shape, b: b.shape, c: c?.shape)
        case .matMul:
            self = try MatrixShape(matMul: a.shape, b: b.shape)
        default:
            throw FoveaError(.unsupported, "not a Gemm or MatMul")
        }
        guard y.shape.elementCount == outputCount, y.shape == outputShape || node.op != .matMul else {
            throw FoveaError(.shapeMismatch, "\(node.op.typeName) output is planned as \(y.shape); expected \(outputShape)")
        }
    }

    /// Writes `beta × C`, broadcast to `rows × columns`, into `out` (Gemm with a C term).
    public func writeInitial(c: UnsafePointer<Float>, into out: UnsafeMutablePointer<Float>) {
        guard let cShape else { return }
        // C's shape padded with leading 1s to rank 2.
        let cRows = cShape.count == 2 ? cShape[0] : 1, cColumns = cShape.last ?? 1
        let rowStride = cRows == 1 ? 0 : cColumns
        let columnStride = cColumns == 1 ? 0 : 1
        for i in 0..<rows {
            for j in 0..<columns { out[i * columns + j] = beta * c[i * rowStride + j * columnStride] }
        }
    }
}
