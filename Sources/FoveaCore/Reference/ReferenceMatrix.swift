/// Gemm and MatMul.
enum ReferenceMatrix {
    /// `alpha * A' * B' + beta * C`, with `A'`, `B'` optionally transposed and
    /// `C` broadcast to `M×N`.
    static func gemm(_ args: ReferenceInputs, _ attributes: GemmAttributes, outputShape: [Int]) throws -> Tensor {
        let a = try args.tensor(0), b = try args.tensor(1)
        let m = outputShape[0], n = outputShape[1]
        let k = attributes.transA ? a.shape[0] : a.shape[1]
        let lhs = attributes.transA ? transposed(try a.requireFloats("A"), rows: k, columns: m) : try a.requireFloats("A")
        let rhs = attributes.transB ? transposed(try b.requireFloats("B"), rows: n, columns: k) : try b.requireFloats("B")
        var product = multiply(lhs, rhs, rows: m, inner: k, columns: n)
        for i in product.indices { product[i] *= attributes.alpha }
        if let c = args.optional(2) {
            let bias = ReferenceBinary.broadcast(try c.requireFloats("C"), c.shape, [Float](repeating: 0, count: m * n),
                                                 [m, n], to: [m, n], +)
            for i in product.indices { product[i] += attributes.beta * bias[i] }
        }
        return Tensor(uncheckedShape: outputShape, floats: product)
    }

    /// numpy `matmul`: 1-D operands are promoted (and the promoted axis dropped
    /// from the result), leading batch axes broadcast.
    static func matMul(_ args: ReferenceInputs, outputShape: [Int]) throws -> Tensor {
        let a = try args.tensor(0), b = try args.tensor(1)
        let lhs = try a.requireFloats("A"), rhs = try b.requireFloats("B")
        let operands = MatMulOperands(a.shape, b.shape)
        let m = operands.rows, k = operands.lhsColumns, n = operands.columns
        let batchShape = try broadcastShape(operands.lhsBatch, operands.rhsBatch)
        let lhsOffsets = matrixOffsets(operands.lhsBatch, in: batchShape, matrixSize: m * k)
        let rhsOffsets = matrixOffsets(operands.rhsBatch, in: batchShape, matrixSize: k * n)
        var output: [Float] = []
        output.reserveCapacity(outputShape.elementCount)
        for (lhsOffset, rhsOffset) in zip(lhsOffsets, rhsOffsets) {
            output += multiply(Array(lhs[lhsOffset..<(lhsOffset + m * k)]), Array(rhs[rhsOffset..<(rhsOffset + k * n)]),
                               rows: m, inner: k, columns: n)
        }
        return Tensor(uncheckedShape: outputShape, floats: output)
    }

    /// The offset of each operand matrix for every batch index of `batchShape`, in row-major order.
    static func matrixOffsets(_ operandBatch: [Int], in batchShape: [Int], matrixSize: Int) -> [Int] {
        let strides = operandBatch.broadcastStrides(to: batchShape)
        var offsets: [Int] = []
        for flat in 0..<batchShape.elementCount {
            var remainder = flat, offset = 0
            for axis in batchShape.indices.reversed() {
                offset += (remainder % batchShape[axis]) * strides[axis]
                remainder /= batchShape[axis]
            }
            offsets.append(offset * matrixSize)
        }
        return offsets
    }

    /// `rows×inner` times `inner×columns`, row-major, as an i-k-j loop; each
    /// row of the product is summed in Double and rounded to Float once.
    static func multiply(_ lhs: [Float], _ rhs: [Float], rows: Int, inner: Int, columns: Int) -> [Float] {
        var output = [Float](repeating: 0, count: rows * columns)
        guard !lhs.isEmpty, !rhs.isEmpty, !output.isEmpty else { return output }
        var sums = [Double](repeating: 0, count: columns)
        lhs.withUnsafeBufferPointer { a in
            rhs.withUnsafeBufferPointer { b in
                output.withUnsafeMutableBufferPointer { c in
                    sums.withUnsafeMutableBufferPointer { sum in
                        for i in 0..<rows {
                            for j in 0..<columns { sum[j] = 0 }
                            for p in 0..<inner {
                                let scale = Double(a[i * inner + p])
                                for j in 0..<columns { sum[j] += scale * Double(b[p * columns + j]) }
                            }
                            for j in 0..<columns { c[i * columns + j] = Float(sum[j]) }
                        }
                    }
                }
            }
        }
        return output
    }

    /// The transpose of a row-major `rows×columns` matrix.
    static func transposed(_ values: [Float], rows: Int, columns: Int) -> [Float] {
        var output = [Float](repeating: 0, count: values.count)
        for r in 0..<rows {
            for c in 0..<columns { output[c * rows + r] = values[r * columns + c] }
        }
        return output
    }
}
