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
        let newWidth: Int, newHeight: Int
        if coverWidth == coverHeight {
            (newWidth, newHeight) = try shorterSideSize(coverWidth)
        } else {
            // Aspect fill of a non-square target: the larger of the two scales.
            let scale = Swift.max(Double(coverWidth) / Double(self.width), Double(coverHeight) / Double(self.height))
            let scaledWidth = (Double(self.width) * scale).rounded(), scaledHeight = (Double(self.height) * scale).rounded()
            guard scaledWidth < 0x1p53, scaledHeight < 0x1p53 else {
                throw FoveaError(.invalidImage, "scaling the \(self.width)×\(self.height) image to cover \(coverWidth)×\(coverHeight) makes it too large")
            }
            newWidth = Swift.max(coverWidth, Int(scaledWidth))
            newHeight = Swift.max(coverHeight, Int(scaledHeight))
        }
        // Only the centre is resampled: memory follows the crop, not the scaled image
        // (which, for a 1×1170 photo, would be 224×262080 pixels).
        return try resized(width: newWidth, height: newHeight,
                           croppedTo: (newWidth - width) / 2, (newHeight - height) / 2, width: width, height: height)
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
