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
        return try resized(width: newWidth, height: newHeight, croppedTo: 0, 0, width: newWidth, height: newHeight)
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
        let geometry = CropAndScaleGeometry(imageWidth: width, imageHeight: height,
                                            sourceWidth: Double(width), sourceHeight: Double(height),
                                            scaledWidth: newWidth, scaledHeight: newHeight,
                                            cropX: x, cropY: y, cropWidth: cropWidth, cropHeight: cropHeight,
                                            canvasWidth: cropWidth, canvasHeight: cropHeight, left: 0, top: 0)
        return try rendered(geometry)
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
///
/// Sums are kept in `Int32`, as Pillow's are: the weights of one output add up
/// to about 2^22, so 255 × 2^22 plus the rounding half stays below 2^31.
struct ResamplingKernel: Sendable {
    /// Weights carry 22 fractional bits (Pillow's `PRECISION_BITS = 32 - 8 - 2`).
    static let precisionBits: Int32 = 22

    /// First input sample read for each output sample.
    private(set) var starts: [Int] = []
    /// Number of input samples read for each output sample.
    private(set) var counts: [Int] = []
    /// `outputSize × taps` fixed-point weights; unused taps are zero.
    private(set) var weights: [Int32] = []
    /// Weights stored per output sample.
    let taps: Int

    /// - Parameter extent: the span of input samples mapped onto the output
    ///   (`inputSize` when `nil`; Pillow's `box`, from 0): smaller than
    ///   `inputSize` when the input is a reduced decode whose last sample covers
    ///   only part of a pixel.
    /// - Parameter outputs: the output samples to compute (all when `nil`);
    ///   ``starts``, ``counts`` and ``weights`` then describe those alone, in order.
    init(inputSize: Int, extent: Double? = nil, outputSize: Int, filter: ResamplingFilter, outputs: Range<Int>? = nil) {
        let scale = (extent ?? Double(inputSize)) / Double(outputSize)
        let filterScale = max(scale, 1.0)  // widen the filter only when shrinking
        let support = filter.support * filterScale
        let inverseFilterScale = 1.0 / filterScale  // Pillow multiplies by this; dividing can differ in the last bit
        taps = Int(support.rounded(.up)) * 2 + 1
        let outputs = outputs ?? 0..<outputSize
        weights = [Int32](repeating: 0, count: outputs.count * taps)
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
                weights[(out - outputs.lowerBound) * taps + tap] = Int32(fixed)
            }
            starts.append(start)
            counts.append(count)
        }
    }

    /// The input samples the outputs read.
    var inputRange: Range<Int> {
        guard let first = starts.first, let last = starts.indices.last else { return 0..<0 }
        return first..<max(first, starts[last] + counts[last])
    }

    /// Resamples one interleaved RGB row along x: `input` is the whole source
    /// row, `output` receives `starts.count` pixels.
    func resampleRow(_ input: UnsafePointer<UInt8>, into output: UnsafeMutablePointer<UInt8>) {
        weights.withUnsafeBufferPointer { weights in
            let weights = weights.baseAddress!
            for x in 0..<starts.count {
                var r = Self.half, g = Self.half, b = Self.half
                let k = weights + x * taps
                var p = input + starts[x] * 3
                for tap in 0..<counts[x] {
                    let w = k[tap]
                    r &+= Int32(p[0]) &* w
                    g &+= Int32(p[1]) &* w
                    b &+= Int32(p[2]) &* w
                    p += 3
                }
                output[3 * x] = Self.clip8(r)
                output[3 * x + 1] = Self.clip8(g)
                output[3 * x + 2] = Self.clip8(b)
            }
        }
    }

    /// Output sample `y` of the vertical pass for `length` bytes of a row:
    /// `rows` points at input row `starts[y]`, the next rows `stride` bytes apart.
    /// Sixteen bytes at a time in SIMD lanes.
    func resampleColumns(_ rows: UnsafePointer<UInt8>, stride: Int, tapsOf y: Int, length: Int,
                         into output: UnsafeMutablePointer<UInt8>) {
        weights.withUnsafeBufferPointer { weights in
            let k = weights.baseAddress! + y * taps
            let count = counts[y]
            let lanes = 16
            var column = 0
            while column + lanes <= length {
                var sum = SIMD16<Int32>(repeating: Self.half)
                var p = UnsafeRawPointer(rows + column)
                for tap in 0..<count {
                    let bytes = p.loadUnaligned(as: SIMD16<UInt8>.self)
                    sum &+= SIMD16<Int32>(truncatingIfNeeded: bytes) &* k[tap]
                    p += stride
                }
                let clipped = (sum &>> Self.precisionBits).clamped(lowerBound: .zero, upperBound: SIMD16(repeating: 255))
                UnsafeMutableRawPointer(output + column).storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: clipped),
                                                                    as: SIMD16<UInt8>.self)
                column += lanes
            }
            while column < length {
                var sum = Self.half
                var p = rows + column
                for tap in 0..<count {
                    sum &+= Int32(p[0]) &* k[tap]
                    p += stride
                }
                output[column] = Self.clip8(sum)
                column += 1
            }
        }
    }

    /// Rounding offset: one half in fixed point.
    private static let half: Int32 = 1 << (precisionBits - 1)

    /// Fixed point → byte, saturating (Pillow's `clip8`).
    private static func clip8(_ value: Int32) -> UInt8 {
        UInt8(clamping: value >> precisionBits)
    }
}
