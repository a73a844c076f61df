import FoveaCore

/// Gemm (`alpha·A'·B' + beta·C`, optional transposes, C broadcast) and MatMul
/// (numpy semantics: 1-D operands promoted, batch axes broadcast) on the packed
/// GEMM kernels. A constant right operand (the usual weights) is packed once.
enum SIMDMatrix: SIMDOperatorFamily {
    static func supports(_ node: NodeContext) -> Bool {
        (try? shape(node)) != nil
    }

    static func prepare(_ node: NodeContext) throws -> any PreparedStep {
        let shape = try shape(node)
        return MatrixStep(shape: shape, constantB: node.constant(1), constantC: node.constant(2), kernels: try GemmKernelSet.current(),
                          opName: node.op.typeName)
    }

    /// The node's matrix shapes if this family runs it; throws otherwise.
    static func shape(_ node: NodeContext) throws -> MatrixShape {
        guard let a = node.inputType(0), let b = node.inputType(1), let y = node.outputTypes.first,
              a.dataType == .float32, b.dataType == .float32, y.dataType == .float32 else {
            throw FoveaError(.unsupported, "the simd \(node.op.typeName) runs float32 matrices")
        }
        let shape: MatrixShape
        switch node.op {
        case .gemm(let attributes):
            let c = node.inputType(2)
            if let c, c.dataType != .float32 {
                throw FoveaError(.unsupported, "Gemm C must be float32")
            }
            shape = try MatrixShape(gemm: attributes, a: a.shape, b: b.shape, c: c?.shape)
        case .matMul:
            shape = try MatrixShape(matMul: a.shape, b: b.shape)
        default:
            throw FoveaError(.unsupported, "not a Gemm or MatMul")
        }
        guard y.shape.elementCount == shape.outputCount, y.shape == shape.outputShape || node.op != .matMul else {
            throw FoveaError(.shapeMismatch, "\(node.op.typeName) output is planned as \(y.shape); expected \(shape.outputShape)")
        }
        if let constant = node.constant(1), constant.shape != b.shape || constant.dataType != .float32 {
            throw FoveaError(.shapeMismatch, "\(node.op.typeName) constant B does not match its type")
        }
        return shape
    }
}

/// Sizes and strides of a Gemm or (batched) MatMul.
struct MatrixShape: Sendable, Equatable {
    var rows: Int, columns: Int, inner: Int
    var inputShapes: [[Int]]
    var outputShape: [Int]
    /// Element strides of A' and B' (`A'[i, p] = a[i * aRowStride + p * aColumnStride]`).
    var aRowStride: Int, aColumnStride: Int, bRowStride: Int, bColumnStride: Int
    /// Per output matrix: the offsets of its A and B matrices (MatMul batches).
    var aOffsets: [Int] = [0], bOffsets: [Int] = [0]
    var alpha: Float = 1, beta: Float = 0
    /// Gemm's C shape, broadcast to `rows × columns`.
    var cShape: [Int]?

    var outputCount: Int { aOffsets.count * rows * columns }

    init(gemm g: GemmAttributes, a: [Int], b: [Int], c: [Int]?) throws {
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

    init(matMul a: [Int], b: [Int]) throws {
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
}

/// One Gemm or MatMul node, its right operand packed if constant and unbatched.
struct MatrixStep: PreparedStep {
    let shape: MatrixShape
    let kernels: GemmKernelSet
    let algorithm: String
    let opName: String
    private let packedB: [Float]?
    /// `beta × C` broadcast to the output, computed here when C is a constant.
    private let preparedInitial: [Float]?

    init(shape: MatrixShape, constantB: Tensor?, constantC: Tensor?, kernels: GemmKernelSet, opName: String = "Gemm") {
        self.shape = shape
        self.opName = opName
        self.kernels = kernels
        preparedInitial = constantC?.floats.flatMap { Self.initial(shape, c: $0) }
        var packed: [Float]?
        if let values = constantB?.floats, shape.bOffsets.allSatisfy({ $0 == 0 }), shape.inner > 0 {
            var buffer = [Float](repeating: 0, count: GemmPacking.columnPanels(shape.columns) * shape.inner * GemmKernelSet.tileColumns)
            values.withUnsafeBufferPointer { source in
                buffer.withUnsafeMutableBufferPointer { out in
                    guard let source = source.baseAddress, let out = out.baseAddress else { return }
                    GemmPacking.packB(k: shape.inner, columns: shape.columns, firstPanel: 0,
                                      panelCount: GemmPacking.columnPanels(shape.columns), source: source,
                                      rowStride: shape.bRowStride, columnStride: shape.bColumnStride, into: out)
                }
            }
            packed = buffer
        }
        packedB = packed
        algorithm = "gemm 8x32 \(kernels.isa)" + (packed == nil ? "" : " packed B")
    }

    /// Packed A, then the driver's B blocks.
    func workspaceBytes(threads: Int) -> Int {
        let s = shape
        let scratch = GemmDriver.scratchFloats(columns: s.columns, k: s.inner, packedB: packedB != nil, threads: threads)
        return (packedAFloats + scratch) * MemoryLayout<Float>.stride
    }

    private var packedAFloats: Int {
        SIMDStepSupport.alignedFloats(max(1, GemmPacking.packedACount(rows: shape.rows, k: shape.inner)))
    }

    func run(_ buffers: StepBuffers, context: RunContext) throws {
        let s = shape
        let op = opName
        let a = try buffers.input(0, op), b = try buffers.input(1, op)
        let y = buffers.outputs[0].floats
        let matrix = s.rows * s.columns
        // `beta × C` broadcast into the output, which the GEMM then adds to.
        var accumulate = false
        if let preparedInitial {
            y.update(from: preparedInitial, count: s.outputCount)
            accumulate = true
        } else if s.inputShapes.count > 2, s.cShape != nil, s.beta != 0 {
            Self.initial(s, c: try buffers.input(2, op).floats, into: y)
            accumulate = true
        }
        let workspace = try SIMDStepSupport.workspace(buffers, op)
        let packedA = workspace
        let scratch = workspace + packedAFloats
        (packedB ?? []).withUnsafeBufferPointer { packedBuffer in
            for (index, (aOffset, bOffset)) in zip(s.aOffsets, s.bOffsets).enumerated() {
                GemmPacking.packA(rows: s.rows, k: s.inner, source: a.floats + aOffset, rowStride: s.aRowStride,
                                  columnStride: s.aColumnStride, scale: s.alpha, into: packedA)
                let right: GemmRightOperand = (packedB == nil ? nil : packedBuffer.baseAddress).map { .packed($0) }
                    ?? .strided(b.floats + bOffset, rowStride: s.bRowStride, columnStride: s.bColumnStride)
                GemmDriver.multiply(kernels: kernels, rows: s.rows, columns: s.columns, k: s.inner,
                                    packedA: packedA, b: right, c: y + index * matrix,
                                    accumulate: accumulate, scratch: scratch, context: context)
            }
        }
    }

    /// `beta × C` broadcast to `rows × columns`.
    private static func initial(_ shape: MatrixShape, c: UnsafePointer<Float>, into out: UnsafeMutablePointer<Float>) {
        guard let cShape = shape.cShape else { return }
        let rows = shape.rows, columns = shape.columns
        // C's shape padded with leading 1s to rank 2.
        let cRows = cShape.count == 2 ? cShape[0] : 1, cColumns = cShape.last ?? 1
        let rowStride = cRows == 1 ? 0 : cColumns
        let columnStride = cColumns == 1 ? 0 : 1
        for i in 0..<rows {
            for j in 0..<columns { out[i * columns + j] = shape.beta * c[i * rowStride + j * columnStride] }
        }
    }

    /// `beta × C` for a constant C, or nil when there is no C term.
    private static func initial(_ shape: MatrixShape, c: [Float]) -> [Float]? {
        guard shape.cShape != nil, shape.beta != 0 else { return nil }
        var out = [Float](repeating: 0, count: shape.rows * shape.columns)
        c.withUnsafeBufferPointer { c in
            out.withUnsafeMutableBufferPointer { out in
                guard let c = c.baseAddress, let out = out.baseAddress else { return }
                initial(shape, c: c, into: out)
            }
        }
        return out
    }
}
