import FoveaCore

/// Where each pixel of a model's input comes from, for one way of fitting an
/// image to it: the whole image is scaled (bilinear, antialiased) to
/// ``scaledWidth`` × ``scaledHeight``, the rectangle at (``cropX``, ``cropY``)
/// of size ``cropWidth`` × ``cropHeight`` is kept, and placed at (``left``,
/// ``top``) on a black ``canvasWidth`` × ``canvasHeight`` canvas.
///
/// This is the one place the crop-and-scale arithmetic lives: the picture
/// (``RGBImage/rendered(_:threads:)``), the fused tensor path
/// (``PixelNormalization/tensor(from:geometry:threads:)``) and the choice of
/// a reduced JPEG decode (``keepsFullResolution(forImageWidth:height:)``,
/// ``reduced(by:imageWidth:imageHeight:)``) all read it.
public struct CropAndScaleGeometry: Sendable, Equatable {
    /// The size of the image this geometry applies to.
    public let imageWidth: Int, imageHeight: Int
    /// The extent of that image, in its pixels, that is scaled to ``scaledWidth``
    /// × ``scaledHeight``: the image's own size, except for a reduced decode,
    /// where it is the full size divided by the reduction (the last decoded
    /// row or column may stick out by a fraction of a pixel).
    public let sourceWidth: Double, sourceHeight: Double
    /// The size the whole image is scaled to.
    public let scaledWidth: Int, scaledHeight: Int
    /// The rectangle of the scaled image that is kept.
    public let cropX: Int, cropY: Int, cropWidth: Int, cropHeight: Int
    /// The output: the model's input size.
    public let canvasWidth: Int, canvasHeight: Int
    /// Where the kept rectangle goes on the canvas (non-zero only when letterboxing).
    public let left: Int, top: Int

    /// Scale to cover `width/f × height/f` keeping the aspect, keep the centre
    /// `width × height` (Vision's `.centerCrop`; with f = 0.875 and a square
    /// target, torchvision's `Resize(round(size/f))` + `CenterCrop(size)`).
    public static func centerCrop(imageWidth: Int, imageHeight: Int, width: Int, height: Int,
                                  cropFraction: Double = 1) throws -> CropAndScaleGeometry {
        try RGBImage.checkSize(width: width, height: height)
        try RGBImage.checkSize(width: imageWidth, height: imageHeight)
        guard cropFraction > 0, cropFraction <= 1 else {
            throw FoveaError(.invalidArgument, "crop fraction \(cropFraction) must be in (0, 1]")
        }
        let coverWidth = max(width, Int((Double(width) / cropFraction).rounded()))
        let coverHeight = max(height, Int((Double(height) / cropFraction).rounded()))
        let newWidth: Int, newHeight: Int
        if coverWidth == coverHeight {
            (newWidth, newHeight) = try RGBImage.shorterSideSize(width: imageWidth, height: imageHeight, target: coverWidth)
        } else {
            // Aspect fill of a non-square target: the larger of the two scales.
            let scale = max(Double(coverWidth) / Double(imageWidth), Double(coverHeight) / Double(imageHeight))
            let scaledWidth = (Double(imageWidth) * scale).rounded(), scaledHeight = (Double(imageHeight) * scale).rounded()
            guard scaledWidth < 0x1p53, scaledHeight < 0x1p53 else {
                throw FoveaError(.invalidImage, "scaling the \(imageWidth)×\(imageHeight) image to cover \(coverWidth)×\(coverHeight) makes it too large")
            }
            newWidth = max(coverWidth, Int(scaledWidth))
            newHeight = max(coverHeight, Int(scaledHeight))
        }
        return CropAndScaleGeometry(imageWidth: imageWidth, imageHeight: imageHeight,
                                    sourceWidth: Double(imageWidth), sourceHeight: Double(imageHeight),
                                    scaledWidth: newWidth, scaledHeight: newHeight,
                                    cropX: (newWidth - width) / 2, cropY: (newHeight - height) / 2,
                                    cropWidth: width, cropHeight: height,
                                    canvasWidth: width, canvasHeight: height, left: 0, top: 0)
    }

    /// Stretch the whole image to `width × height` (Vision's `.scaleFill`).
    public static func fill(imageWidth: Int, imageHeight: Int, width: Int, height: Int) throws -> CropAndScaleGeometry {
        try RGBImage.checkSize(width: width, height: height)
        try RGBImage.checkSize(width: imageWidth, height: imageHeight)
        return CropAndScaleGeometry(imageWidth: imageWidth, imageHeight: imageHeight,
                                    sourceWidth: Double(imageWidth), sourceHeight: Double(imageHeight), scaledWidth: width, scaledHeight: height, cropX: 0, cropY: 0,
                                    cropWidth: width, cropHeight: height,
                                    canvasWidth: width, canvasHeight: height, left: 0, top: 0)
    }

    /// Scale to fit inside `width × height` keeping the aspect, centred on
    /// black at column `(width - w) / 2`, row `(height - h) / 2` (Vision's `.scaleFit`).
    public static func fit(imageWidth: Int, imageHeight: Int, width: Int, height: Int) throws -> CropAndScaleGeometry {
        try RGBImage.checkSize(width: width, height: height)
        try RGBImage.checkSize(width: imageWidth, height: imageHeight)
        let scale = min(Double(width) / Double(imageWidth), Double(height) / Double(imageHeight))
        let newWidth = min(width, max(1, Int((Double(imageWidth) * scale).rounded())))
        let newHeight = min(height, max(1, Int((Double(imageHeight) * scale).rounded())))
        return CropAndScaleGeometry(imageWidth: imageWidth, imageHeight: imageHeight,
                                    sourceWidth: Double(imageWidth), sourceHeight: Double(imageHeight), scaledWidth: newWidth, scaledHeight: newHeight, cropX: 0, cropY: 0,
                                    cropWidth: newWidth, cropHeight: newHeight,
                                    canvasWidth: width, canvasHeight: height,
                                    left: (width - newWidth) / 2, top: (height - newHeight) / 2)
    }

    /// Whether a picture of `width × height` showing the whole image still has
    /// at least one pixel per pixel of the scaled image along both axes: the
    /// scale shrinks it, or keeps it, never enlarges it. A JPEG is decoded
    /// reduced only to a size for which this holds.
    public func keepsFullResolution(forImageWidth width: Int, height: Int) -> Bool {
        scaledWidth <= width && scaledHeight <= height
    }

    /// The same fit for the image decoded at 1/`reduction` of its size, which
    /// came out `imageWidth × imageHeight` (each side rounded up): the crop
    /// covers the same part of the picture, and output pixel centres map to the
    /// same places, as Pillow's `resize(size, box=...)` after `draft` does.
    public func reduced(by reduction: Int, imageWidth: Int, imageHeight: Int) -> CropAndScaleGeometry {
        CropAndScaleGeometry(imageWidth: imageWidth, imageHeight: imageHeight,
                             sourceWidth: sourceWidth / Double(reduction), sourceHeight: sourceHeight / Double(reduction),
                             scaledWidth: scaledWidth, scaledHeight: scaledHeight,
                             cropX: cropX, cropY: cropY, cropWidth: cropWidth, cropHeight: cropHeight,
                             canvasWidth: canvasWidth, canvasHeight: canvasHeight, left: left, top: top)
    }

    /// Whether the scale leaves the width, or the height, as it is.
    var keepsWidth: Bool { scaledWidth == imageWidth && sourceWidth == Double(imageWidth) }
    var keepsHeight: Bool { scaledHeight == imageHeight && sourceHeight == Double(imageHeight) }

    /// Throws `.invalidArgument` unless the geometry was made for `image`'s size.
    public func validate(for image: RGBImage) throws {
        guard image.width == imageWidth, image.height == imageHeight else {
            throw FoveaError(.invalidArgument, "the crop-and-scale geometry was made for a \(imageWidth)×\(imageHeight) image, not \(image.width)×\(image.height)")
        }
    }
}
