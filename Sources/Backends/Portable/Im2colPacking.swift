import FoveaCore

/// The 2-D convolution shape every SIMD convolution path works from, with
/// `auto_pad` already resolved by ``SpatialGeometry``.
struct ConvolutionLayout: Sendable, Equatable {
    var batch: Int, channels: Int, inputHeight: Int, inputWidth: Int
    var outputChannels: Int, group: Int
    var kernelHeight: Int, kernelWidth: Int
    var strideHeight: Int, strideWidth: Int, dilationHeight: Int, dilationWidth: Int
    var padTop: Int, padLeft: Int
    var outputHeight: Int, outputWidth: Int

    var groupChannels: Int { channels / group }
    var groupOutputs: Int { outputChannels / group }
    var inputPlane: Int { inputHeight * inputWidth }
    var outputPlane: Int { outputHeight * outputWidth }
    /// GEMM inner dimension: one row of im2col per (input channel of the group, kernel tap).
    var reduction: Int { groupChannels * kernelHeight * kernelWidth }
    var inputShape: [Int] { [batch, channels, inputHeight, inputWidth] }
    var outputShape: [Int] { [batch, outputChannels, outputHeight, outputWidth] }

    /// A 1x1 convolution with stride 1 and no padding reads each input plane
    /// as a ready-made row of the GEMM's B matrix.
    var isPointwise: Bool {
        kernelHeight == 1 && kernelWidth == 1 && strideHeight == 1 && strideWidth == 1
            && padTop == 0 && padLeft == 0 && outputHeight == inputHeight && outputWidth == inputWidth
    }

    var isDepthwise: Bool { group == channels && group == outputChannels }

    /// The outputs `o` in `0..<output` whose input `o * stride + offset` lies in `0..<input`.
    static func validOutputs(offset: Int, stride: Int, input: Int, output: Int) -> Range<Int> {
        let lower = max(0, SpatialGeometry.ceilDivide(-offset, stride))
        let upper = min(output, SpatialGeometry.floorDivide(input - 1 - offset, stride) + 1)
        return lower < upper ? lower..<upper : lower..<lower
    }
}

/// im2col straight into packed B panels (see ``GemmPacking``): row `p` of
/// the im2col matrix is (input channel, kernel row, kernel column), matching
/// the flattened weight layout; column `n` is output position `oh * OW + ow`.
struct Im2colPacker: Sendable {
    let layout: ConvolutionLayout
    /// Per kernel column: the output columns whose input column is inside the image.
    private let validColumns: [Range<Int>]
    /// Per kernel row: the output rows whose input row is inside the image.
    private let validRows: [Range<Int>]

    init(_ layout: ConvolutionLayout) {
        self.layout = layout
        validColumns = (0..<layout.kernelWidth).map {
            ConvolutionLayout.validOutputs(offset: $0 * layout.dilationWidth - layout.padLeft, stride: layout.strideWidth,
                                           input: layout.inputWidth, output: layout.outputWidth)
        }
        validRows = (0..<layout.kernelHeight).map {
            ConvolutionLayout.validOutputs(offset: $0 * layout.dilationHeight - layout.padTop, stride: layout.strideHeight,
                                           input: layout.inputHeight, output: layout.outputHeight)
        }
    }

    /// Packs panels `firstPanel ..< firstPanel + panelCount` for one image's
    /// group, whose first input channel plane starts at `x`.
    func pack(x: UnsafePointer<Float>, firstPanel: Int, panelCount: Int, into destination: UnsafeMutablePointer<Float>) {
        let l = layout
        let width = gemmTileColumns
        let k = l.reduction
        let positions = l.outputPlane
        for panel in firstPanel..<(firstPanel + panelCount) {
            let out = destination + (panel - firstPanel) * k * width
            let first = panel * width
            let valid = max(0, min(width, positions - first))
            var p = 0
            for c in 0..<l.groupChannels {
                let plane = x + c * l.inputPlane
                for kh in 0..<l.kernelHeight {
                    let rows = validRows[kh]
                    for kw in 0..<l.kernelWidth {
                        let columns = validColumns[kw]
                        let outRow = out + p * width
                        p += 1
                        var t = 0
                        var oh = first / l.outputWidth, ow = first % l.outputWidth
                        while t < valid {
                            let segment = min(l.outputWidth - ow, valid - t)
                            let end = ow + segment
                            if rows.contains(oh) {
                                let ih = oh * l.strideHeight + kh * l.dilationHeight - l.padTop
                                let inputRow = plane + ih * l.inputWidth
                                let lo = min(max(ow, columns.lowerBound), end)
                                let hi = max(min(end, columns.upperBound), lo)
                                for i in ow..<lo { outRow[t + i - ow] = 0 }
                                if hi > lo {
                                    let iw = lo * l.strideWidth + kw * l.dilationWidth - l.padLeft
                                    let dst = outRow + t + lo - ow
                                    if l.strideWidth == 1 {
                                        dst.update(from: inputRow + iw, count: hi - lo)
                                    } else {
                                        let src = inputRow + iw
                                        for i in 0..<(hi - lo) { dst[i] = src[i * l.strideWidth] }
                                    }
                                }
                                for i in hi..<end { outRow[t + i - ow] = 0 }
                            } else {
                                (outRow + t).update(repeating: 0, count: segment)
                            }
                            t += segment
                            oh += 1
                            ow = 0
                        }
                        if valid < width { (outRow + valid).update(repeating: 0, count: width - valid) }
                    }
                }
            }
        }
    }
}
