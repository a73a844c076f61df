import CFoveaKernels
import FoveaCore

/// Fully connected layers: Gemm, and MatMul of a 2-D activation by a constant
/// 2-D matrix. `Y = α·A·B + β·C` over N rows of A is a 1×1 convolution of N
/// images of K channels (1×1 pixels) into M channels, so it runs on the GEMM
/// convolution with B's transpose as the weights (α folded into them, β·C
/// into the bias); with one row that is a matrix-vector product streaming
/// the packed weights once.
///
/// Each row is its own matrix–vector product there, so more rows (the tokens
/// of a transformer) and any batched MatMul, B an activation included, run on
/// ``PackedMatMulStep``: row-major A packed into the microkernel's row panels.
enum KernelsMatrix: KernelsOperatorFamily {
    /// The most rows of A the matrix–vector path takes (a classifier head's
    /// batch). 768 → 1000 at 1 thread (CPU time, Zen 4): 1 row 0.038 ms
    /// against 0.111 ms on the packed GEMM, 2 rows 0.070 / 0.111, 4 rows
    /// 0.134 / 0.111, 16 rows 0.502 / 0.221.
    static let maximumRows = 3

    static func supports(_ node: NodeContext) -> Bool {
        (try? plan(node)) != nil || (try? matMulShape(node)) != nil
    }

    static func prepare(_ node: NodeContext, _ backend: KernelsBackend) throws -> any PreparedStep {
        if let (shape, weights, bias) = try? plan(node) {
            return try PackedGemmConvolutionStep(shape: shape, weights: weights, bias: bias, runTimeBias: false,
                                                 label: "fully connected")
        }
        return try PackedMatMulStep(node: node, shape: try matMulShape(node))
    }

    /// The shapes of a node ``PackedMatMulStep`` runs: float32, A not
    /// transposed, no empty dimension, C absent or a constant of one row.
    static func matMulShape(_ node: NodeContext) throws -> MatrixShape {
        let shape = try MatrixShape(node)
        if let b = node.constant(1), let type = node.inputType(1), b.shape != type.shape || b.dataType != .float32 {
            throw FoveaError(.shapeMismatch, "\(node.op.typeName) constant B does not match its type")
        }
        guard shape.aColumnStride == 1 else { throw FoveaError(.unsupported, "the kernels run Gemm with transA = 0") }
        guard shape.rows >= 1, shape.inner >= 1, shape.columns >= 1, !shape.aOffsets.isEmpty,
              fovea_matmul_packed_b_floats(shape.inner, shape.columns) > 0 else {
            throw FoveaError(.unsupported, "the kernels' matmul needs non-empty operands")
        }
        if let cShape = shape.cShape, shape.beta != 0 {
            guard node.constant(2) != nil, cShape.count < 2 || cShape[0] == 1 else {
                throw FoveaError(.unsupported, "the kernels' matmul takes a constant C of one row")
            }
        }
        return shape
    }

    /// The 1×1 convolution for a node, with its weights (M×K) and bias (M or nil).
    static func plan(_ node: NodeContext) throws -> (ConvolutionShape, [Float], [Float]?) {
        guard node.outputTypes.count == 1, let a = node.inputType(0), let bType = node.inputType(1),
              a.dataType == .float32, bType.dataType == .float32, node.outputTypes[0].dataType == .float32,
              a.shape.count == 2, bType.shape.count == 2, let b = node.constant(1) else {
            throw FoveaError(.unsupported, "the kernels run 2-D Gemm/MatMul with a constant float32 B")
        }
        var attributes = GemmAttributes()
        switch node.op {
        case .gemm(let gemm): attributes = gemm
        case .matMul: guard node.inputTypes.count == 2 else { throw FoveaError(.unsupported, "MatMul has two inputs") }
        default: throw FoveaError(.unsupported, "\(node.op.typeName) is not Gemm or MatMul")
        }
        guard !attributes.transA else { throw FoveaError(.unsupported, "the kernels run Gemm with transA = 0") }
        let rows = a.shape[0], k = a.shape[1]
        guard rows <= maximumRows else {
            throw FoveaError(.unsupported, "the kernels run Gemm/MatMul with at most \(maximumRows) rows of A (row by row); A has \(rows)")
        }
        let bShape = b.shape
        let outputs = attributes.transB ? bShape[0] : bShape[1]
        guard (attributes.transB ? bShape[1] : bShape[0]) == k, node.outputTypes[0].shape == [rows, outputs],
              rows >= 1, k >= 1, outputs >= 1 else {
            throw FoveaError(.shapeMismatch, "Gemm shapes A \(a.shape) and B \(bShape) do not fit")
        }
        let values = try b.requireFloats("B")
        // Weights M×K: B's rows when transposed, else its columns; α folded in.
        var weights = [Float](repeating: 0, count: outputs * k)
        for m in 0..<outputs {
            for p in 0..<k {
                weights[m * k + p] = attributes.alpha * (attributes.transB ? values[m * k + p] : values[p * outputs + m])
            }
        }
        var bias: [Float]?
        if node.inputTypes.count > 2, let cType = node.inputType(2) {
            // C broadcasts to [N, M]: the kernels take a per-output bias only (shapes [M], [1, M] or a scalar).
            guard let c = node.constant(2), cType.dataType == .float32,
                  cType.shape.elementCount == outputs && (cType.shape.count == 1 || cType.shape.first == 1)
                    || cType.shape.elementCount == 1 else {
                throw FoveaError(.unsupported, "the kernels run Gemm with a constant per-output C")
            }
            let cValues = try c.requireFloats("C")
            bias = (0..<outputs).map { attributes.beta * cValues[cValues.count == 1 ? 0 : $0] }
        }
        let params = fovea_conv2d_params(
            batch: rows, channels: k, input_height: 1, input_width: 1, output_channels: outputs, groups: 1,
            output_height: 1, output_width: 1, kernel_height: 1, kernel_width: 1, stride_height: 1, stride_width: 1,
            dilation_height: 1, dilation_width: 1, pad_top: 0, pad_left: 0)
        var checked = params
        try KernelStatus.check(fovea_conv2d_check(&checked), node.op.typeName)
        return (ConvolutionShape(params: params, activation: nil), weights, bias)
    }
}
