/// One depthwise plane: `y = activation(bias + conv2d(x, kernel))` for a single channel.
///
/// For each kernel tap it adds `weight × input row` to the output rows and
/// columns whose input lies inside `x` (not padding), so the inner loop has no
/// bounds tests and vectorizes for stride 1. The fused activation (codes in
/// FusedActivationKernel.swift) then runs over the plane while it is in cache.
@inline(never)
func depthwisePlane(x: UnsafePointer<Float>, inputHeight: Int, inputWidth: Int,
                           kernel: UnsafePointer<Float>, kernelHeight: Int, kernelWidth: Int,
                           strideHeight: Int, strideWidth: Int, dilationHeight: Int, dilationWidth: Int,
                           padTop: Int, padLeft: Int,
                           y: UnsafeMutablePointer<Float>, outputHeight: Int, outputWidth: Int, bias: Float,
                           activation: Int = 0, p0: Float = 0, p1: Float = 0) {
    y.initialize(repeating: bias, count: outputHeight * outputWidth)
    for kh in 0..<kernelHeight {
        let rows = validOutputs(offset: kh * dilationHeight - padTop, stride: strideHeight,
                                input: inputHeight, output: outputHeight)
        for kw in 0..<kernelWidth {
            let columns = validOutputs(offset: kw * dilationWidth - padLeft, stride: strideWidth,
                                       input: inputWidth, output: outputWidth)
            guard !rows.isEmpty, !columns.isEmpty else { continue }
            let weight = kernel[kh * kernelWidth + kw]
            let count = columns.count
            let firstColumn = columns.lowerBound * strideWidth + kw * dilationWidth - padLeft
            for oh in rows {
                let ih = oh * strideHeight + kh * dilationHeight - padTop
                let inputRow = x + ih * inputWidth + firstColumn
                let outputRow = y + oh * outputWidth + columns.lowerBound
                if strideWidth == 1 {
                    for i in 0..<count { outputRow[i] += weight * inputRow[i] }
                } else {
                    for i in 0..<count { outputRow[i] += weight * inputRow[i * strideWidth] }
                }
            }
        }
    }
    activateInPlace(y, count: outputHeight * outputWidth, activation, p0, p1)
}

/// The outputs `o` in `0..<output` with `o * stride + offset` in `0..<input`.
@inline(__always)
func validOutputs(offset: Int, stride: Int, input: Int, output: Int) -> Range<Int> {
    // ceil(-offset / stride) and floor((input - 1 - offset) / stride), for any sign.
    let lowerNumerator = -offset
    let lower = max(0, lowerNumerator > 0 ? (lowerNumerator + stride - 1) / stride : -((-lowerNumerator) / stride))
    let upperNumerator = input - 1 - offset
    let upper = min(output, upperNumerator >= 0 ? upperNumerator / stride + 1 : -((-upperNumerator + stride - 1) / stride) + 1)
    return lower < upper ? lower..<upper : lower..<lower
}
