import FoveaCore

extension RGBImage {
    /// The image scaled to `width × height` with a bilinear (triangle) filter
    /// that antialiases when shrinking.
    ///
    /// This reproduces Pillow's `Image.resize(size, Image.BILINEAR)` exactly:
    /// separable passes (horizontal first, rounded to 8 bits in between), the
    /// filter's support widened by the shrink factor, pixel centres at `+0.5`,
    /// normalized weights quantized to 22-bit fixed point. Throws
    /// `.invalidImage` for an empty or oversized target.
    public func resized(width newWidth: Int, height newHeight: Int) throws -> RGBImage {
        try RGBImage.checkSize(width: newWidth, height: newHeight)
        if newWidth == width, newHeight == height { return self }

        let vertical = ResamplingKernel(inputSize: height, outputSize: newHeight, filter: .bilinear)
        // Only rows that the vertical pass reads need a horizontal pass.
        let firstRow = vertical.starts.first ?? 0
        let endRow = vertical.starts.indices.last.map { vertical.starts[$0] + vertical.counts[$0] } ?? height
        var rows = self
        var rowOffset = 0
        if newWidth != width {
            let horizontal = ResamplingKernel(inputSize: width, outputSize: newWidth, filter: .bilinear)
            rows = horizontal.resampleRows(of: self, rows: firstRow..<endRow)
            rowOffset = firstRow
        }
        guard newHeight != height else { return rows }
        return vertical.resampleColumns(of: rows, rowOffset: rowOffset)
    }

    /// The `cropWidth × cropHeight` rectangle at column `x`, row `y` of
    /// ``resized(width:height:)``, computed without the rest of the resized image:
    /// pixel for pixel the same as resizing then cropping, in memory proportional
    /// to the crop. A 1×1170 image scaled to a shorter side of 224 would be
    /// 224×262080 pixels (176 MB) before its centre crop; this makes 224×224.
    public func resized(width newWidth: Int, height newHeight: Int,
                        croppedTo x: Int, _ y: Int, width cropWidth: Int, height cropHeight: Int) throws -> RGBImage {
        try RGBImage.checkSize(width: cropWidth, height: cropHeight)
        guard newWidth > 0, newHeight > 0, x >= 0, y >= 0, cropWidth <= newWidth - x, cropHeight <= newHeight - y else {
            throw FoveaError(.invalidImage, "crop of \(cropWidth)×\(cropHeight) at (\(x), \(y)) does not fit in the \(newWidth)×\(newHeight) image")
        }
        // Rows of this image that the result needs, and the vertical pass (if any).
        var vertical: ResamplingKernel?
        var neededRows = y..<(y + cropHeight)
        if newHeight != height {
            let kernel = ResamplingKernel(inputSize: height, outputSize: newHeight, filter: .bilinear, outputs: neededRows)
            let first = kernel.starts.first ?? 0
            let end = kernel.starts.indices.last.map { kernel.starts[$0] + kernel.counts[$0] } ?? first
            neededRows = first..<end
            vertical = kernel
        }
        let rows: RGBImage
        if newWidth != width {
            let horizontal = ResamplingKernel(inputSize: width, outputSize: newWidth, filter: .bilinear, outputs: x..<(x + cropWidth))
            rows = horizontal.resampleRows(of: self, rows: neededRows)
        } else {
            rows = try cropped(x: x, y: neededRows.lowerBound, width: cropWidth, height: neededRows.count)
        }
        return vertical?.resampleColumns(of: rows, rowOffset: neededRows.lowerBound) ?? rows
    }
}

/// A 1-D resampling filter in Pillow's form: a function and its support radius.
struct ResamplingFilter: Sendable {
    let support: Double
    let weight: @Sendable (Double) -> Double

    /// The triangle filter (Pillow's `BILINEAR`).
    static let bilinear = ResamplingFilter(support: 1.0) { x in
        let distance = abs(x)
        return distance < 1.0 ? 1.0 - distance : 0.0
    }
}

/// The fixed-point weights mapping `inputSize` samples to `outputSize`, computed
/// as Pillow's `precompute_coeffs` + `normalize_coeffs_8bpc` do.
struct ResamplingKernel {
    /// Weights carry 22 fractional bits (Pillow's `PRECISION_BITS = 32 - 8 - 2`).
    static let precisionBits = 22

    /// First input sample read for each output sample.
    private(set) var starts: [Int] = []
    /// Number of input samples read for each output sample.
    private(set) var counts: [Int] = []
    /// `outputSize × taps` fixed-point weights; unused taps are zero.
    private(set) var weights: [Int] = []
    /// Weights stored per output sample.
    let taps: Int

    /// - Parameter outputs: the output samples to compute (all when `nil`);
    ///   ``starts``, ``counts`` and ``weights`` then describe those alone, in order.
    init(inputSize: Int, outputSize: Int, filter: ResamplingFilter, outputs: Range<Int>? = nil) {
        let scale = Double(inputSize) / Double(outputSize)
        let filterScale = max(scale, 1.0)  // widen the filter only when shrinking
        let support = filter.support * filterScale
        let inverseFilterScale = 1.0 / filterScale  // Pillow multiplies by this; dividing can differ in the last bit
        taps = Int(support.rounded(.up)) * 2 + 1
        let outputs = outputs ?? 0..<outputSize
        weights = [Int](repeating: 0, count: outputs.count * taps)
        let one = Double(1 << Self.precisionBits)

        var raw = [Double](repeating: 0, count: taps)
        for out in outputs {
            let center = (Double(out) + 0.5) * scale
            // Int(_:) truncates toward zero, like Pillow's C casts.
            let start = max(Int(center - support + 0.5), 0)
            let end = min(Int(center + support + 0.5), inputSize)
            let count = max(end - start, 0)
            var total = 0.0
            for tap in 0..<count {
                raw[tap] = filter.weight((Double(tap + start) - center + 0.5) * inverseFilterScale)
                total += raw[tap]
            }
            for tap in 0..<count {
                let normalized = total != 0 ? raw[tap] / total : raw[tap]
                let fixed = normalized < 0 ? -0.5 + normalized * one : 0.5 + normalized * one
                weights[(out - outputs.lowerBound) * taps + tap] = Int(fixed)
            }
            starts.append(start)
            counts.append(count)
        }
    }

    /// Resamples each row in `rows` along x; the result has `rows.count` rows.
    func resampleRows(of image: RGBImage, rows: Range<Int>) -> RGBImage {
        let outWidth = starts.count
        var output = [UInt8](repeating: 0, count: outWidth * rows.count * 3)
        image.pixels.withUnsafeBufferPointer { input in
            weights.withUnsafeBufferPointer { weights in
                output.withUnsafeMutableBufferPointer { output in
                    for (outRow, row) in rows.enumerated() {
                        let inRowBase = row * image.width * 3
                        for x in 0..<outWidth {
                            var r = Self.half, g = Self.half, b = Self.half
                            let w = x * taps
                            var i = inRowBase + starts[x] * 3
                            for tap in 0..<counts[x] {
                                let k = weights[w + tap]
                                r += Int(input[i]) * k
                                g += Int(input[i + 1]) * k
                                b += Int(input[i + 2]) * k
                                i += 3
                            }
                            let o = (outRow * outWidth + x) * 3
                            output[o] = Self.clip8(r)
                            output[o + 1] = Self.clip8(g)
                            output[o + 2] = Self.clip8(b)
                        }
                    }
                }
            }
        }
        return RGBImage(uncheckedWidth: outWidth, height: rows.count, pixels: output)
    }

    /// Resamples along y; row `r` of `image` is input row `r + rowOffset`.
    func resampleColumns(of image: RGBImage, rowOffset: Int) -> RGBImage {
        let outHeight = starts.count
        let rowLength = image.width * 3
        var output = [UInt8](repeating: 0, count: rowLength * outHeight)
        image.pixels.withUnsafeBufferPointer { input in
            weights.withUnsafeBufferPointer { weights in
                output.withUnsafeMutableBufferPointer { output in
                    for y in 0..<outHeight {
                        let firstRow = (starts[y] - rowOffset) * rowLength
                        let w = y * taps
                        let outBase = y * rowLength
                        for column in 0..<rowLength {
                            var sum = Self.half
                            var i = firstRow + column
                            for tap in 0..<counts[y] {
                                sum += Int(input[i]) * weights[w + tap]
                                i += rowLength
                            }
                            output[outBase + column] = Self.clip8(sum)
                        }
                    }
                }
            }
        }
        return RGBImage(uncheckedWidth: image.width, height: outHeight, pixels: output)
    }

    /// Rounding offset: one half in fixed point.
    private static let half = 1 << (precisionBits - 1)

    /// Fixed point → byte, saturating (Pillow's `clip8`).
    private static func clip8(_ value: Int) -> UInt8 {
        UInt8(clamping: value >> precisionBits)
    }
}
