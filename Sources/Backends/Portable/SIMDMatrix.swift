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
        return MatrixStep(shape: shape, constantB: node.constant(1), constantC: node.constant(2),
                          opName: node.op.typeName)
    }

    /// The node's matrix shapes if this family runs it; throws otherwise.
    static func shape(_ node: NodeContext) throws -> MatrixShape {
        let shape = try MatrixShape(node)
        if let constant = node.constant(1), let b = node.inputType(1), constant.shape != b.shape || constant.dataType != .float32 {
            throw FoveaError(.shapeMismatch, "\(node.op.typeName) constant B does not match its type")
        }
        return shape
    }
}

/// One Gemm or MatMul node, its right operand packed if constant and unbatched.
struct MatrixStep: PreparedStep {
    let shape: MatrixShape
    let algorithm: String
    let opName: String
    private let packedB: [Float]?
    /// `beta × C` broadcast to the output, computed here when C is a constant.
    private let preparedInitial: [Float]?

    init(shape: MatrixShape, constantB: Tensor?, constantC: Tensor?, opName: String = "Gemm") {
        self.shape = shape
        self.opName = opName
        preparedInitial = constantC?.floats.flatMap { Self.initial(shape, c: $0) }
        var packed: [Float]?
        if let values = constantB?.floats, shape.bOffsets.allSatisfy({ $0 == 0 }), shape.inner > 0 {
            var buffer = [Float](repeating: 0, count: GemmPacking.columnPanels(shape.columns) * shape.inner * gemmTileColumns)
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
        algorithm = "gemm 8x32" + (packed == nil ? "" : " packed B")
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
            s.writeInitial(c: try buffers.input(2, op).floats, into: y)
            accumulate = true
        }
        let workspace = try buffers.floatWorkspace(op)
        let packedA = workspace
        let scratch = workspace + packedAFloats
        (packedB ?? []).withUnsafeBufferPointer { packedBuffer in
            for (index, (aOffset, bOffset)) in zip(s.aOffsets, s.bOffsets).enumerated() {
                GemmPacking.packA(rows: s.rows, k: s.inner, source: a.floats + aOffset, rowStride: s.aRowStride,
                                  columnStride: s.aColumnStride, scale: s.alpha, into: packedA)
                let right: GemmRightOperand = (packedB == nil ? nil : packedBuffer.baseAddress).map { .packed($0) }
                    ?? .strided(b.floats + bOffset, rowStride: s.bRowStride, columnStride: s.bColumnStride)
                GemmDriver.multiply(rows: s.rows, columns: s.columns, k: s.inner,
                                    packedA: packedA, b: right, c: y + index * matrix,
                                    accumulate: accumulate, scratch: scratch, context: context)
            }
        }
    }

    /// `beta × C` for a constant C, or nil when there is no C term.
    private static func initial(_ shape: MatrixShape, c: [Float]) -> [Float]? {
        guard shape.cShape != nil, shape.beta != 0 else { return nil }
        var out = [Float](repeating: 0, count: shape.rows * shape.columns)
        c.withUnsafeBufferPointer { c in
            out.withUnsafeMutableBufferPointer { out in
                guard let c = c.baseAddress, let out = out.baseAddress else { return }
                shape.writeInitial(c: c, into: out)
            }
        }
        return out
    }
}
