/// Direct convolution (ONNX Conv) over 1, 2 or 3 spatial axes, with groups,
/// strides, dilations, asymmetric pads and auto_pad.
///
/// For every (batch, output channel, input channel of its group, kernel tap)
/// it adds `weight × input row` to the output row the tap touches. The rows
/// a tap reads inside the input (not padding) are computed once per tap, so
/// the inner loop has no bounds tests. 1-D and 2-D convolutions run as 3-D
/// ones with leading unit axes. Each output plane is summed in Double (bias
/// first) and rounded to Float once, so that the oracle's own rounding error
/// stays far below any fast backend's tolerance, however long the sums.
enum ReferenceConvolution {
    static func run(_ args: ReferenceInputs, _ attributes: ConvAttributes, outputShape: [Int]) throws -> Tensor {
        let x = try args.tensor(0), w = try args.tensor(1)
        let input = try x.requireFloats("X"), weights = try w.requireFloats("W")
        let bias = try args.optional(2)?.requireFloats("B")
        let sums = try exactSums(input: input, inputShape: x.shape, weights: weights, weightShape: w.shape,
                                 bias: bias.map { $0.map(Double.init) }, attributes, outputShape: outputShape)
        return Tensor(uncheckedShape: outputShape, floats: activated(sums.map { Float($0) }, attributes.activation))
    }

    /// The convolution's sums in Double, bias first, before any rounding to Float:
    /// exact when the inputs and weights are small integers (the zero-point-shifted
    /// values of the quantized convolutions), so the integer operators share this loop.
    static func exactSums(input: [Float], inputShape: [Int], weights: [Float], weightShape: [Int], bias: [Double]?,
                          _ attributes: ConvAttributes, outputShape: [Int]) throws -> [Double] {
        let geometry = try SpatialGeometry(inputSize: Array(inputShape.dropFirst(2)), convolution: attributes, weightShape: weightShape)
            .expanded(toRank: 3)

        let batch = inputShape[0], channels = inputShape[1], outputChannels = weightShape[0]
        let groupChannels = channels / attributes.group
        let groupOutputs = outputChannels / attributes.group
        let inputPlane = geometry.inputSize.elementCount
        let outputPlane = geometry.outputSize.elementCount
        let kernelVolume = geometry.kernelShape.elementCount
        let taps = Tap.all(geometry)

        var output = [Double](repeating: 0, count: outputShape.elementCount)
        if let bias {
            for plane in 0..<(batch * outputChannels) {
                let value = bias[plane % outputChannels]
                for i in 0..<outputPlane { output[plane * outputPlane + i] = value }
            }
        }
        guard !input.isEmpty, !weights.isEmpty, !output.isEmpty else { return output }
        input.withUnsafeBufferPointer { inputBuffer in
            weights.withUnsafeBufferPointer { weightBuffer in
                output.withUnsafeMutableBufferPointer { outputBuffer in
                    guard let x = inputBuffer.baseAddress, let w = weightBuffer.baseAddress,
                          let y = outputBuffer.baseAddress else { return }
                    for n in 0..<batch {
                        for m in 0..<outputChannels {
                            let firstChannel = (m / groupOutputs) * groupChannels
                            let sum = y + (n * outputChannels + m) * outputPlane
                            for c in 0..<groupChannels {
                                let inputOffset = (n * channels + firstChannel + c) * inputPlane
                                let kernelOffset = (m * groupChannels + c) * kernelVolume
                                accumulate(x + inputOffset, kernel: w + kernelOffset, into: sum,
                                           taps: taps, geometry)
                            }
                        }
                    }
                }
            }
        }
        return output
    }

    /// The fused activation (if any) applied to every output, after the bias.
    private static func activated(_ output: [Float], _ activation: FusedActivation?) -> [Float] {
        guard let activation else { return output }
        return output.map(activation.evaluator)
    }

    /// One kernel position and the outputs it touches without reading padding.
    private struct Tap {
        /// Index in the flattened kernel.
        var index: Int
        /// Kernel coordinates (depth, row, column).
        var depth: Int, row: Int, column: Int
        /// Output coordinates per axis whose input for this tap is inside the input.
        var depths: Range<Int>, rows: Range<Int>, columns: Range<Int>

        static func all(_ g: SpatialGeometry) -> [Tap] {
            var taps: [Tap] = []
            for kd in 0..<g.kernelShape[0] {
                for kh in 0..<g.kernelShape[1] {
                    for kw in 0..<g.kernelShape[2] {
                        taps.append(Tap(index: taps.count, depth: kd, row: kh, column: kw,
                                        depths: g.validOutputRange(axis: 0, tap: kd),
                                        rows: g.validOutputRange(axis: 1, tap: kh),
                                        columns: g.validOutputRange(axis: 2, tap: kw)))
                    }
                }
            }
            return taps
        }
    }

    /// `y += conv(x, kernel)` for one input plane and one output plane, in Double.
    private static func accumulate(_ x: UnsafePointer<Float>, kernel: UnsafePointer<Float>,
                                   into y: UnsafeMutablePointer<Double>, taps: [Tap], _ g: SpatialGeometry) {
        let inputHeight = g.inputSize[1], inputWidth = g.inputSize[2]
        let outputHeight = g.outputSize[1], outputWidth = g.outputSize[2]
        let stride = g.strides[2]
        for tap in taps where !tap.columns.isEmpty {
            let weight = Double(kernel[tap.index])
            let count = tap.columns.count
            let firstColumn = g.inputCoordinate(axis: 2, output: tap.columns.lowerBound, tap: tap.column)
            for od in tap.depths {
                let id = g.inputCoordinate(axis: 0, output: od, tap: tap.depth)
                for oh in tap.rows {
                    let ih = g.inputCoordinate(axis: 1, output: oh, tap: tap.row)
                    let inputRow = x + (id * inputHeight + ih) * inputWidth + firstColumn
                    let outputRow = y + (od * outputHeight + oh) * outputWidth + tap.columns.lowerBound
                    if stride == 1 {
                        for i in 0..<count { outputRow[i] += weight * Double(inputRow[i]) }
                    } else {
                        for i in 0..<count { outputRow[i] += weight * Double(inputRow[i * stride]) }
                    }
                }
            }
        }
    }
}
