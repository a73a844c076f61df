import FoveaCore

extension RGBImage {
    /// The `width × height` rectangle whose top-left pixel is at column `x`, row `y`.
    ///
    /// Throws `.invalidImage` if the rectangle is empty or not inside the image.
    public func cropped(x: Int, y: Int, width cropWidth: Int, height cropHeight: Int) throws -> RGBImage {
        try RGBImage.checkSize(width: cropWidth, height: cropHeight)
        guard x >= 0, y >= 0, cropWidth <= width - x, cropHeight <= height - y else {
            throw FoveaError(.invalidImage, "crop of \(cropWidth)×\(cropHeight) at (\(x), \(y)) does not fit in the \(width)×\(height) image")
        }
        if x == 0, y == 0, cropWidth == width, cropHeight == height { return self }
        var output = [UInt8]()
        output.reserveCapacity(cropWidth * cropHeight * RGBImage.channelCount)
        for row in y..<(y + cropHeight) {
            let start = (row * width + x) * RGBImage.channelCount
            output.append(contentsOf: pixels[start..<(start + cropWidth * RGBImage.channelCount)])
        }
        return RGBImage(uncheckedWidth: cropWidth, height: cropHeight, pixels: output)
    }

    /// The centred `width × height` crop, with `left = (w - width) / 2` and
    /// `top = (h - height) / 2` (integer division, as torchvision and PIL scripts do).
    ///
    /// Throws `.invalidImage` if the crop is empty or larger than the image.
    public func centerCropped(width cropWidth: Int, height cropHeight: Int) throws -> RGBImage {
        guard cropWidth <= width, cropHeight <= height else {
            throw FoveaError(.invalidImage, "centre crop of \(cropWidth)×\(cropHeight) is larger than the \(width)×\(height) image")
        }
        return try cropped(x: (width - cropWidth) / 2, y: (height - cropHeight) / 2, width: cropWidth, height: cropHeight)
    }

    /// The image scaled (bilinear, see ``resized(width:height:)``) so that its
    /// shorter side is `target`; the longer side becomes
    /// `round(long * target / short)`, halves rounding to even as Python's `round`
    /// does. A square image becomes `target × target`.
    public func resizedShorterSide(to target: Int) throws -> RGBImage {
        let (newWidth, newHeight) = try shorterSideSize(target)
        return try resized(width: newWidth, height: newHeight)
    }

    /// The size ``resizedShorterSide(to:)`` scales to.
    func shorterSideSize(_ target: Int) throws -> (width: Int, height: Int) {
        try RGBImage.shorterSideSize(width: width, height: height, target: target)
    }

    /// The size an image of `width × height` has once its shorter side is `target`.
    static func shorterSideSize(width: Int, height: Int, target: Int) throws -> (width: Int, height: Int) {
        guard target > 0 else {
            throw FoveaError(.invalidImage, "target shorter side is \(target); expected at least 1")
        }
        let short = min(width, height), long = max(width, height)
        let (product, overflow) = long.multipliedReportingOverflow(by: target)
        guard !overflow else {
            throw FoveaError(.invalidImage, "scaling the \(width)×\(height) image to a shorter side of \(target) makes it too large")
        }
        let newLong = RGBImage.divideRoundingHalfToEven(product, by: short)
        return width <= height ? (target, newLong) : (newLong, target)
    }

    /// `round(numerator / denominator)` for positive integers, ties to even, exact.
    static func divideRoundingHalfToEven(_ numerator: Int, by denominator: Int) -> Int {
        let quotient = numerator / denominator
        let twiceRemainder = 2 * (numerator % denominator)
        if twiceRemainder > denominator || (twiceRemainder == denominator && quotient % 2 == 1) {
            return quotient + 1
        }
        return quotient
    }
}
