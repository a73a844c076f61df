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
        return MatrixStep(shape: shape, constantB: node.constant(1), constantC: node.constant(2), kernels: try GemmKernelSet.current())
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
    private let packedB: [Float]?
    /// `beta × C` broadcast to the output, computed here when C is a constant.
    private let preparedInitial: [Float]?

    init(shape: MatrixShape, constantB: Tensor?, constantC: Tensor?, kernels: GemmKernelSet) {
        self.shape = shape
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

    func run(_ inputs: [Tensor?], context: RunContext) throws -> [Tensor] {
        let s = shape
        var operands: [[Float]] = []
        for (index, expected) in s.inputShapes.enumerated() {
            guard index < inputs.count, let tensor = inputs[index] else {
                throw FoveaError(.invalidArgument, "input \(index) is missing")
            }
            guard tensor.shape == expected else {
                throw FoveaError(.shapeMismatch, "input \(index) has shape \(tensor.shape); the step was prepared for \(expected)")
            }
            operands.append(try tensor.requireFloats("input \(index)"))
        }
        let matrix = s.rows * s.columns, total = s.outputCount
        let initial = preparedInitial ?? (operands.count > 2 ? Self.initial(s, c: operands[2]) : nil)
        let packedA = UnsafeMutablePointer<Float>.allocate(capacity: max(1, GemmPacking.packedACount(rows: s.rows, k: s.inner)))
        defer { packedA.deallocate() }
        let output = [Float](unsafeUninitializedCapacity: total) { buffer, count in
            guard let y = buffer.baseAddress else { count = 0; return }
            if let initial { y.update(from: initial, count: total) }
            operands[0].withUnsafeBufferPointer { aBuffer in
                operands[1].withUnsafeBufferPointer { bBuffer in
                    (packedB ?? []).withUnsafeBufferPointer { packedBuffer in
                        for (index, (aOffset, bOffset)) in zip(s.aOffsets, s.bOffsets).enumerated() {
                            guard let a = aBuffer.baseAddress, let b = bBuffer.baseAddress else {
                                if initial == nil { (y + index * matrix).update(repeating: 0, count: matrix) }
                                continue
                            }
                            GemmPacking.packA(rows: s.rows, k: s.inner, source: a + aOffset, rowStride: s.aRowStride,
                                              columnStride: s.aColumnStride, scale: s.alpha, into: packedA)
                            let right: GemmRightOperand = (packedB == nil ? nil : packedBuffer.baseAddress).map { .packed($0) }
                                ?? .strided(b + bOffset, rowStride: s.bRowStride, columnStride: s.bColumnStride)
                            GemmDriver.multiply(kernels: kernels, rows: s.rows, columns: s.columns, k: s.inner,
                                                packedA: packedA, b: right, c: y + index * matrix,
                                                accumulate: initial != nil, context: context)
                        }
                    }
                }
            }
            count = total
        }
        return [try Tensor(shape: s.outputShape, floats: output)]
    }

    /// `beta × C` broadcast to the output, or nil when there is no C term.
    private static func initial(_ shape: MatrixShape, c: [Float]) -> [Float]? {
        guard let cShape = shape.cShape, shape.beta != 0 else { return nil }
        let rows = shape.rows, columns = shape.columns
        let padded = [Int](repeating: 1, count: 2 - cShape.count) + cShape
        let rowStride = padded[0] == 1 ? 0 : padded[1]
        let columnStride = padded[1] == 1 ? 0 : 1
        var out = [Float](repeating: 0, count: rows * columns)
        for i in 0..<rows {
            for j in 0..<columns { out[i * columns + j] = shape.beta * c[i * rowStride + j * columnStride] }
        }
        return out
    }
}
