import FoveaCore

/// The three ways to fit a photo to a model's fixed input size (Vision's
/// `VNImageCropAndScaleOption`, less its deprecated variants). The arithmetic
/// is ``CropAndScaleGeometry``'s; these render its picture.
extension RGBImage {
    /// Scales the image to cover `width × height` keeping its aspect, then crops
    /// the centre (Vision's `.centerCrop`).
    ///
    /// With `cropFraction` f < 1 the image is scaled to cover `width/f × height/f`
    /// first, so the crop keeps the central fraction f (ImageNet's 224-of-256 is
    /// f = 0.875). For a square target this is exactly torchvision's
    /// `Resize(round(size/f))` + `CenterCrop(size)`. Only the centre is
    /// resampled: memory follows the crop, not the scaled image (which, for a
    /// 1×1170 photo, would be 224×262080 pixels).
    public func centerCropped(toWidth width: Int, height: Int, cropFraction: Double = 1) throws -> RGBImage {
        try rendered(.centerCrop(imageWidth: self.width, imageHeight: self.height, width: width, height: height,
                                 cropFraction: cropFraction))
    }

    /// Scales the image to fit inside `width × height` keeping its aspect, and
    /// centres it on black (Vision's `.scaleFit`, a letterbox). The picture
    /// starts at column `(width - w) / 2`, row `(height - h) / 2`.
    public func letterboxed(toWidth width: Int, height: Int) throws -> RGBImage {
        try rendered(.fit(imageWidth: self.width, imageHeight: self.height, width: width, height: height))
    }

    /// The picture `geometry` describes for this image: its canvas, with the
    /// scaled crop in place and black elsewhere.
    ///
    /// - Parameter threads: rows are split across this many threads.
    /// - Throws: `.invalidArgument` for a geometry made for another image size.
    public func rendered(_ geometry: CropAndScaleGeometry, threads: Int = 1) throws -> RGBImage {
        try geometry.validate(for: self)
        if geometry.keepsWidth, geometry.keepsHeight, geometry.cropWidth == width,
           geometry.cropHeight == height, geometry.canvasWidth == width, geometry.canvasHeight == height {
            return self
        }
        let canvasRow = geometry.canvasWidth * RGBImage.channelCount
        var canvas = [UInt8](repeating: 0, count: canvasRow * geometry.canvasHeight)
        canvas.withUnsafeMutableBufferPointer { canvas in
            CropAndScaleResampler(geometry).run(on: self, threads: threads) { y, row in
                let start = (geometry.top + y) * canvasRow + geometry.left * RGBImage.channelCount
                (canvas.baseAddress! + start).update(from: row.baseAddress!, count: row.count)
            }
        }
        return RGBImage(uncheckedWidth: geometry.canvasWidth, height: geometry.canvasHeight, pixels: canvas)
    }
}
