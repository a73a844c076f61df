import FoveaCore

/// The three ways to fit a photo to a model's fixed input size (Vision's
/// `VNImageCropAndScaleOption`, less its deprecated variants).
extension RGBImage {
    /// Scales the image to cover `width × height` keeping its aspect, then crops
    /// the centre (Vision's `.centerCrop`).
    ///
    /// With `cropFraction` f < 1 the image is scaled to cover `width/f × height/f`
    /// first, so the crop keeps the central fraction f (ImageNet's 224-of-256 is
    /// f = 0.875). For a square target this is exactly torchvision's
    /// `Resize(round(size/f))` + `CenterCrop(size)`.
    public func centerCropped(toWidth width: Int, height: Int, cropFraction: Double = 1) throws -> RGBImage {
        try RGBImage.checkSize(width: width, height: height)
        guard cropFraction > 0, cropFraction <= 1 else {
            throw FoveaError(.invalidArgument, "crop fraction \(cropFraction) must be in (0, 1]")
        }
        let coverWidth = Swift.max(width, Int((Double(width) / cropFraction).rounded()))
        let coverHeight = Swift.max(height, Int((Double(height) / cropFraction).rounded()))
        let scaled: RGBImage
        if coverWidth == coverHeight {
            scaled = try resizedShorterSide(to: coverWidth)
        } else {
            // Aspect fill of a non-square target: the larger of the two scales.
            let scale = Swift.max(Double(coverWidth) / Double(self.width), Double(coverHeight) / Double(self.height))
            let newWidth = Swift.max(coverWidth, Int((Double(self.width) * scale).rounded()))
            let newHeight = Swift.max(coverHeight, Int((Double(self.height) * scale).rounded()))
            scaled = try resized(width: newWidth, height: newHeight)
        }
        return try scaled.centerCropped(width: width, height: height)
    }

    /// Scales the image to fit inside `width × height` keeping its aspect, and
    /// centres it on black (Vision's `.scaleFit`, a letterbox). The picture
    /// starts at column `(width - w) / 2`, row `(height - h) / 2`.
    public func letterboxed(toWidth width: Int, height: Int) throws -> RGBImage {
        try RGBImage.checkSize(width: width, height: height)
        let scale = Swift.min(Double(width) / Double(self.width), Double(height) / Double(self.height))
        let newWidth = Swift.min(width, Swift.max(1, Int((Double(self.width) * scale).rounded())))
        let newHeight = Swift.min(height, Swift.max(1, Int((Double(self.height) * scale).rounded())))
        let picture = try resized(width: newWidth, height: newHeight)
        if newWidth == width, newHeight == height { return picture }
        let left = (width - newWidth) / 2, top = (height - newHeight) / 2
        var canvas = [UInt8](repeating: 0, count: width * height * RGBImage.channelCount)
        let rowBytes = newWidth * RGBImage.channelCount
        for row in 0..<newHeight {
            let source = row * rowBytes
            let destination = ((top + row) * width + left) * RGBImage.channelCount
            canvas.replaceSubrange(destination..<(destination + rowBytes), with: picture.pixels[source..<(source + rowBytes)])
        }
        return RGBImage(uncheckedWidth: width, height: height, pixels: canvas)
    }
}
