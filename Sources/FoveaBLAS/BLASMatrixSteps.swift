import FoveaCore
import COpenBLAS

/// `Y = alpha · op(A) · op(B) + beta · C` as one `cblas_sgemm`: the transposes
/// become leading dimensions, and `beta · C` (broadcast to M×N) is written
/// into Y first so that the GEMM accumulates onto it.
struct BLASGemmStep: PreparedStep {
    let attributes: GemmAttributes
    let m: Int, n: Int, k: Int
    /// C's element strides read as M×N (0 on broadcast axes), if C is present.
    let cStrides: [Int]?
    var algorithm: String { "sgemm" + (attributes.transA ? " Aᵀ" : "") + (attributes.transB ? " Bᵀ" : "") }

    init(_ node: NodeContext) throws {
        guard case .gemm(let attributes) = node.op,
              let a = node.inputType(0), let b = node.inputType(1), let y = node.outputTypes.first,
              a.dataType == .float32, b.dataType == .float32, y.dataType == .float32,
              a.shape.count == 2, b.shape.count == 2, y.shape.count == 2 else {
            throw FoveaError(.unsupported, "the blas Gemm runs float32 matrices")
        }
        self.attributes = attributes
        (m, k) = attributes.transA ? (a.shape[1], a.shape[0]) : (a.shape[0], a.shape[1])
        n = y.shape[1]
        let bRows = attributes.transB ? b.shape[1] : b.shape[0]
        guard y.shape == [m, n], bRows == k, max(m, n, k) < Int(Int32.max) else {
            throw FoveaError(.shapeMismatch, "Gemm shapes A \(a.shape), B \(b.shape), Y \(y.shape) do not fit")
        }
        if let c = node.inputType(2) {
            guard c.dataType == .float32, c.shape.count <= 2, (try? broadcastShape(c.shape, [m, n])) == [m, n] else {
                throw FoveaError(.shapeMismatch, "Gemm C is \(c.shape); expected a shape that broadcasts to \(m)×\(n)")
            }
            cStrides = c.shape.broadcastStrides(to: [m, n])
        } else {
            cStrides = nil
        }
    }

    func run(_ buffers: StepBuffers, context: RunContext) throws {
        let a = try buffers.input(0, "Gemm"), b = try buffers.input(1, "Gemm"), y = buffers.outputs[0].floats
        var accumulate: Float = 0
        if let cStrides, attributes.beta != 0, let c = buffers.inputs.count > 2 ? buffers.inputs[2] : nil {
            let source = c.floats, beta = attributes.beta
            for i in 0..<m {
                for j in 0..<n { y[i * n + j] = beta * source[i * cStrides[0] + j * cStrides[1]] }
            }
            accumulate = 1
        }
        guard m > 0, n > 0 else { return }
        if k == 0 {
            if accumulate == 0 { y.update(repeating: 0, count: m * n) }
            return
        }
        BLASBackend.prepareThreads(context)
        cblas_sgemm(CblasRowMajor, attributes.transA ? CblasTrans : CblasNoTrans, attributes.transB ? CblasTrans : CblasNoTrans,
                    Int32(m), Int32(n), Int32(k), attributes.alpha,
                    a.floats, Int32(attributes.transA ? m : k), b.floats, Int32(attributes.transB ? k : n),
                    accumulate, y, Int32(n))
    }
}

/// MatMul with numpy semantics as one `cblas_sgemm` per output matrix: the
/// leading (batch) dimensions broadcast, and a 1-D operand is a row (A) or a
/// column (B) vector.
struct BLASMatMulStep: PreparedStep {
    let rows: Int, inner: Int, columns: Int
    /// The output's batch dimensions, and each operand's matrix strides over them (0 where broadcast).
    let batch: [Int]
    let aStrides: [Int], bStrides: [Int]
    var algorithm: String { "sgemm batched" }

    init(_ node: NodeContext) throws {
        guard case .matMul = node.op, let a = node.inputType(0), let b = node.inputType(1), let y = node.outputTypes.first,
              a.dataType == .float32, b.dataType == .float32, y.dataType == .float32,
              !a.shape.isEmpty, !b.shape.isEmpty else {
            throw FoveaError(.unsupported, "the blas MatMul runs float32 tensors of rank >= 1")
        }
        let lhs = a.shape.count == 1 ? [1] + a.shape : a.shape
        let rhs = b.shape.count == 1 ? b.shape + [1] : b.shape
        rows = lhs[lhs.count - 2]
        inner = lhs[lhs.count - 1]
        columns = rhs[rhs.count - 1]
        let trailing = (a.shape.count == 1 ? 0 : 1) + (b.shape.count == 1 ? 0 : 1)
        batch = Array(y.shape.dropLast(trailing))
        let lhsBatch = Array(lhs.dropLast(2)), rhsBatch = Array(rhs.dropLast(2))
        guard rhs[rhs.count - 2] == inner, y.shape.elementCount == batch.elementCount * rows * columns,
              (try? broadcastShape(lhsBatch, batch)) == batch, (try? broadcastShape(rhsBatch, batch)) == batch,
              max(rows, inner, columns) < Int(Int32.max) else {
            throw FoveaError(.shapeMismatch, "MatMul shapes A \(a.shape), B \(b.shape), Y \(y.shape) do not fit")
        }
        aStrides = lhsBatch.broadcastStrides(to: batch)
        bStrides = rhsBatch.broadcastStrides(to: batch)
    }

    func run(_ buffers: StepBuffers, context: RunContext) throws {
        let a = try buffers.input(0, "MatMul").floats, b = try buffers.input(1, "MatMul").floats
        let y = buffers.outputs[0].floats
        let count = batch.elementCount
        guard count > 0, rows > 0, columns > 0 else { return }
        if inner == 0 {
            y.update(repeating: 0, count: count * rows * columns)
            return
        }
        BLASBackend.prepareThreads(context)
        // The batch index lives on the stack: a step allocates nothing when it runs.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: Swift.max(1, batch.count)) { index in
            index.initialize(repeating: 0)
            for matrix in 0..<count {
                var aOffset = 0, bOffset = 0
                for axis in batch.indices {
                    aOffset += index[axis] * aStrides[axis]
                    bOffset += index[axis] * bStrides[axis]
                }
                cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, Int32(rows), Int32(columns), Int32(inner),
                            1, a + aOffset * rows * inner, Int32(inner), b + bOffset * inner * columns, Int32(columns),
                            0, y + matrix * rows * columns, Int32(columns))
                // Next batch index, last axis fastest.
                var axis = batch.count - 1
                while axis >= 0 {
                    index[axis] += 1
                    if index[axis] < batch[axis] { break }
                    index[axis] = 0
                    axis -= 1
                }
            }
        }
    }
}
