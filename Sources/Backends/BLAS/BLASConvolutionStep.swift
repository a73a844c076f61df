import FoveaCore
import COpenBLAS

/// 2-D NCHW convolution as one `cblas_sgemm` per (image, group):
/// `Y[m, p] = Σ_k W[m, k] · X'[k, p]` where X' is the im2col matrix, built in
/// the planned workspace, or the input planes themselves for a 1×1 stride-1
/// unpadded kernel. The bias and the fused activation run after the GEMM, on
/// the output planes. Each image writes its own planes, so the output may be
/// a strided Concat slice.
struct BLASConvolutionStep: PreparedStep {
    /// The shapes of one convolution, from the planned types.
    struct Layout {
        var batch: Int, channels: Int, height: Int, width: Int
        var outputChannels: Int, group: Int
        var kernel: (height: Int, width: Int)
        var stride: (height: Int, width: Int)
        var dilation: (height: Int, width: Int)
        var pad: (top: Int, left: Int)
        var output: (height: Int, width: Int)

        var groupChannels: Int { channels / group }
        var groupOutputs: Int { outputChannels / group }
        var inputPlane: Int { height * width }
        var outputPlane: Int { output.height * output.width }
        /// Rows of the im2col matrix: one per (input channel, kernel tap) of a group.
        var reduction: Int { groupChannels * kernel.height * kernel.width }
        /// A 1×1, stride-1, unpadded kernel reads the input planes as they are.
        var isPointwise: Bool {
            kernel == (1, 1) && stride == (1, 1) && pad == (0, 0) && output == (height, width)
        }
    }

    let layout: Layout
    /// `[outputChannels, reduction]`, row-major: group g's rows are `g·groupOutputs ..< (g+1)·groupOutputs`.
    let weights: [Float]
    let bias: [Float]?
    let activation: FusedActivation?
    /// Input 3 is a residual: sgemm runs with beta = 1 on the output holding it.
    let addsResidual: Bool
    let algorithm: String

    var writesStridedOutput: Bool { true }

    /// The output may be placed over the residual: sgemm reads C before it writes it.
    var overwritableInput: Int? { addsResidual ? 3 : nil }

    init(_ node: NodeContext) throws {
        layout = try Self.layout(node)
        guard let w = node.constant(1) else {
            throw FoveaError(.unsupported, "the blas Conv needs constant weights (input 1)")
        }
        weights = try w.requireFloats("W")
        if let b = node.constant(2) {
            bias = try b.requireFloats("B")
        } else {
            guard node.inputType(2) == nil else {
                throw FoveaError(.unsupported, "the blas Conv needs a constant bias (input 2)")
            }
            bias = nil
        }
        guard case .conv(let attributes) = node.op else { throw FoveaError(.unsupported, "not a Conv") }
        activation = attributes.activation
        addsResidual = attributes.addsResidual
        let kernel = "\(layout.kernel.height)x\(layout.kernel.width)"
        algorithm = (layout.isPointwise ? "sgemm 1x1" : "im2col+sgemm \(kernel)") + attributes.fusionSuffix
    }

    /// The node's shapes if this step runs it; throws the reason otherwise.
    static func layout(_ node: NodeContext) throws -> Layout {
        guard case .conv(let attributes) = node.op,
              let x = node.inputType(0), let w = node.inputType(1), let y = node.outputTypes.first,
              x.dataType == .float32, w.dataType == .float32, y.dataType == .float32,
              x.shape.count == 4, w.shape.count == 4, y.shape.count == 4,
              let weights = node.constant(1), weights.shape == w.shape, weights.dataType == .float32,
              node.inputType(2) == nil || node.constant(2)?.shape == [w.shape[0]] else {
            throw FoveaError(.unsupported, "the blas Conv runs 2-D float32 NCHW convolutions with constant weights and bias")
        }
        let group = attributes.group
        guard group >= 1, x.shape[1] % group == 0, w.shape[0] % group == 0, w.shape[1] * group == x.shape[1],
              x.shape.allSatisfy({ $0 >= 1 }), w.shape.allSatisfy({ $0 >= 1 }) else {
            throw FoveaError(.shapeMismatch, "Conv shapes X \(x.shape) and W \(w.shape) do not fit group \(group)")
        }
        let g = try SpatialGeometry(inputSize: Array(x.shape.dropFirst(2)), convolution: attributes, weightShape: w.shape)
        guard g.rank == 2, g.kernelShape == Array(w.shape.dropFirst(2)),
              y.shape == [x.shape[0], w.shape[0]] + g.outputSize else {
            throw FoveaError(.shapeMismatch, "Conv output is planned as \(y.shape); the geometry gives \(g.outputSize)")
        }
        if attributes.addsResidual { try node.checkResidualMatchesOutput("blas") }
        return Layout(batch: x.shape[0], channels: x.shape[1], height: x.shape[2], width: x.shape[3],
                      outputChannels: w.shape[0], group: group,
                      kernel: (g.kernelShape[0], g.kernelShape[1]), stride: (g.strides[0], g.strides[1]),
                      dilation: (g.dilations[0], g.dilations[1]), pad: (g.padsBegin[0], g.padsBegin[1]),
                      output: (g.outputSize[0], g.outputSize[1]))
    }

    /// One im2col matrix (`reduction × outputPlane` floats); none for a pointwise kernel.
    func workspaceBytes(threads: Int) -> Int {
        layout.isPointwise ? 0 : layout.reduction * layout.outputPlane * MemoryLayout<Float>.stride
    }

    func run(_ buffers: StepBuffers, context: RunContext) throws {
        let x = try buffers.input(0, "Conv"), y = buffers.outputs[0]
        let l = layout
        let columns: UnsafeMutablePointer<Float>? = l.isPointwise ? nil : try buffers.floatWorkspace("Conv")
        if addsResidual { try buffers.startFromResidual("Conv") }
        let beta: Float = addsResidual ? 1 : 0
        BLASBackend.prepareThreads(context)
        weights.withUnsafeBufferPointer { w in
            guard let w = w.baseAddress else { return }
            for n in 0..<l.batch {
                for g in 0..<l.group {
                    let input = x.image(n) + g * l.groupChannels * l.inputPlane
                    let output = y.image(n) + g * l.groupOutputs * l.outputPlane
                    let b: UnsafePointer<Float>
                    if let columns {
                        im2col(input, into: columns)
                        b = UnsafePointer(columns)
                    } else {
                        b = UnsafePointer(input)
                    }
                    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans,
                                Int32(l.groupOutputs), Int32(l.outputPlane), Int32(l.reduction),
                                1, w + g * l.groupOutputs * l.reduction, Int32(l.reduction),
                                b, Int32(l.outputPlane), beta, output, Int32(l.outputPlane))
                    finish(output, firstChannel: g * l.groupOutputs)
                }
            }
        }
    }

    /// The im2col matrix of one (image, group): row `(c, i, j)` holds input
    /// channel c at kernel tap (i, j) for every output position, 0 in the padding.
    private func im2col(_ input: UnsafePointer<Float>, into columns: UnsafeMutablePointer<Float>) {
        let l = layout
        var row = columns
        for c in 0..<l.groupChannels {
            let plane = input + c * l.inputPlane
            for i in 0..<l.kernel.height {
                for j in 0..<l.kernel.width {
                    for oh in 0..<l.output.height {
                        let ih = oh * l.stride.height - l.pad.top + i * l.dilation.height
                        let out = row + oh * l.output.width
                        guard ih >= 0 && ih < l.height else {
                            out.update(repeating: 0, count: l.output.width)
                            continue
                        }
                        let source = plane + ih * l.width
                        for ow in 0..<l.output.width {
                            let iw = ow * l.stride.width - l.pad.left + j * l.dilation.width
                            out[ow] = iw >= 0 && iw < l.width ? source[iw] : 0
                        }
                    }
                    row += l.outputPlane
                }
            }
        }
    }

    /// Adds the bias and applies the fused activation to one group's output
    /// planes: one loop per activation, so each vectorizes.
    private func finish(_ output: UnsafeMutablePointer<Float>, firstChannel: Int) {
        guard bias != nil || activation != nil else { return }
        let plane = layout.outputPlane
        for m in 0..<layout.groupOutputs {
            let row = output + m * plane
            let shift = bias?[firstChannel + m] ?? 0
            switch activation {
            case nil:
                for p in 0..<plane { row[p] += shift }
            case .relu:
                for p in 0..<plane { let v = row[p] + shift; row[p] = v > 0 ? v : 0 }
            case .leakyRelu(let alpha):
                for p in 0..<plane { let v = row[p] + shift; row[p] = v >= 0 ? v : alpha * v }
            case .some(let other):
                let function = other.evaluator
                for p in 0..<plane { row[p] = function(row[p] + shift) }
            }
        }
    }
}
