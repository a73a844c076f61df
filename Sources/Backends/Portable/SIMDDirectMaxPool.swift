import FoveaCore

/// Max pooling straight from the input rows, for the common windows that
/// never leave the input: no padding at the start, and no window (ceil_mode
/// included) reaching past the end. Column stride 1 or 2.
///
/// Separable, in two passes per plane: each input row's maximum over the
/// kernel columns, for every output column (stride 2 reads 32 contiguous
/// values and keeps the even lanes), into a small scratch; then each output's
/// maximum of those over the kernel rows. Both start from the lowest finite
/// float and replace only on `v > best`, as the reference does over the taps
/// in (row, column) order: the result is the first tap in that order equal to
/// the maximum, NaN never wins, and a window of only -inf / NaN gives the
/// lowest finite float — so the output equals the reference exactly.
struct DirectMaxPoolPlan: Sendable {
    let planes: Int
    let inputHeight: Int, inputWidth: Int
    let outputHeight: Int, outputWidth: Int
    let kernelHeight: Int, kernelWidth: Int
    let strideHeight: Int, strideWidth: Int
    let dilationHeight: Int, dilationWidth: Int
    /// Input rows some window reads (from row 0).
    let rows: Int
    /// Output columns rounded up to whole vectors: the scratch row length.
    let roundedWidth: Int

    var scratchCount: Int { rows * roundedWidth }

    /// The plan, or `nil` when a window starts in the padding or ends past the
    /// input, or the column stride is not 1 or 2.
    init?(inputShape: [Int], attributes: PoolAttributes) {
        guard inputShape.count == 4,
              let g = try? SpatialGeometry(inputSize: Array(inputShape.dropFirst(2)), pooling: attributes),
              g.rank == 2, g.padsBegin == [0, 0], g.strides[1] == 1 || g.strides[1] == 2,
              g.outputSize.allSatisfy({ $0 >= 1 }) else { return nil }
        let rows = (g.outputSize[0] - 1) * g.strides[0] + g.dilatedKernel(0)
        let columns = (g.outputSize[1] - 1) * g.strides[1] + g.dilatedKernel(1)
        guard rows <= g.inputSize[0], columns <= g.inputSize[1] else { return nil }
        planes = inputShape[0] * inputShape[1]
        (inputHeight, inputWidth) = (g.inputSize[0], g.inputSize[1])
        (outputHeight, outputWidth) = (g.outputSize[0], g.outputSize[1])
        (kernelHeight, kernelWidth) = (g.kernelShape[0], g.kernelShape[1])
        (strideHeight, strideWidth) = (g.strides[0], g.strides[1])
        (dilationHeight, dilationWidth) = (g.dilations[0], g.dilations[1])
        self.rows = rows
        let width = SIMDStepSupport.width
        roundedWidth = (outputWidth + width - 1) / width * width
    }

    /// Pools one plane. `end` is one past the last float of the whole input
    /// tensor: vector loads may read past a row (into lanes that are never
    /// stored) but never past `end`.
    func pool(_ input: UnsafePointer<Float>, end: UnsafePointer<Float>, scratch: UnsafeMutablePointer<Float>,
              into output: UnsafeMutablePointer<Float>) {
        for r in 0..<rows {
            rowMaxima(input + r * inputWidth, end: end, into: scratch + r * roundedWidth)
        }
        let width = SIMDStepSupport.width
        for oh in 0..<outputHeight {
            let outputRow = output + oh * outputWidth
            let first = UnsafePointer(scratch + oh * strideHeight * roundedWidth)
            var ow = 0
            while ow < outputWidth {
                var best = SIMDStepSupport.Vector(repeating: -.greatestFiniteMagnitude)
                for kh in 0..<kernelHeight {
                    let v = SIMDStepSupport.load(first + kh * dilationHeight * roundedWidth + ow)
                    best = best.replacing(with: v, where: v .> best)
                }
                let lanes = Swift.min(width, outputWidth - ow)
                if lanes == width { SIMDStepSupport.store(best, outputRow + ow) } else { SIMDStepSupport.storePartial(best, outputRow + ow, lanes) }
                ow += width
            }
        }
    }

    /// For every output column `ow` (rounded up to whole vectors), the maximum
    /// of `row[ow·stride + kw·dilation]` over the kernel columns.
    private func rowMaxima(_ row: UnsafePointer<Float>, end: UnsafePointer<Float>, into maxima: UnsafeMutablePointer<Float>) {
        let width = SIMDStepSupport.width
        let lastTap = (kernelWidth - 1) * dilationWidth
        var ow = 0
        while ow < roundedWidth {
            let start = row + ow * strideWidth
            // Floats the vector loads of this block read from `start`.
            let span = lastTap + (strideWidth == 1 ? width : 2 * width)
            if end - start < span {
                scalarMaxima(row, from: ow, into: maxima)
                return
            }
            var best = SIMDStepSupport.Vector(repeating: -.greatestFiniteMagnitude)
            for kw in 0..<kernelWidth {
                let tap = UnsafeRawPointer(start + kw * dilationWidth)
                let v = strideWidth == 1 ? tap.loadUnaligned(as: SIMD16<Float>.self)
                                         : tap.loadUnaligned(as: SIMD32<Float>.self).evenHalf
                best = best.replacing(with: v, where: v .> best)
            }
            SIMDStepSupport.store(best, maxima + ow)
            ow += width
        }
    }

    /// ``rowMaxima`` one output at a time from `first` on, for the block at
    /// the very end of the tensor; lanes past the output width get the lowest float.
    private func scalarMaxima(_ row: UnsafePointer<Float>, from first: Int, into maxima: UnsafeMutablePointer<Float>) {
        for ow in first..<roundedWidth {
            var best = -Float.greatestFiniteMagnitude
            if ow < outputWidth {
                for kw in 0..<kernelWidth {
                    let v = row[ow * strideWidth + kw * dilationWidth]
                    if v > best { best = v }
                }
            }
            maxima[ow] = best
        }
    }
}
