/// How an image is fitted to a model's input size (Vision's `VNImageCropAndScaleOption`).
public enum ImageCropAndScaleOption: String, Sendable, Equatable, CaseIterable, Codable {
    /// Scale so the image covers the input, keeping its aspect, and crop the
    /// centre. With the model's crop fraction f (``ImageInputDescription/cropFraction``)
    /// the image is scaled to cover size ÷ f first, as ImageNet evaluation does.
    case centerCrop = "center"
    /// Stretch the whole image to the input size, ignoring its aspect.
    case scaleFill = "fill"
    /// Scale the whole image to fit inside the input, keeping its aspect, centred on black.
    case scaleFit = "fit"

    /// Where each input pixel comes from, for an upright image of
    /// `imageWidth × imageHeight` and a model input of `width × height`.
    /// `cropFraction` applies to `.centerCrop` only.
    public func geometry(forImageWidth imageWidth: Int, height imageHeight: Int, width: Int, height: Int,
                         cropFraction: Double? = nil) throws -> CropAndScaleGeometry {
        switch self {
        case .centerCrop:
            return try .centerCrop(imageWidth: imageWidth, imageHeight: imageHeight, width: width, height: height,
                                   cropFraction: cropFraction ?? 1)
        case .scaleFill: return try .fill(imageWidth: imageWidth, imageHeight: imageHeight, width: width, height: height)
        case .scaleFit: return try .fit(imageWidth: imageWidth, imageHeight: imageHeight, width: width, height: height)
        }
    }

    /// The picture a model with a `width × height` input sees for `image`
    /// (already upright): after crop and scale, before normalization.
    /// `cropFraction` applies to `.centerCrop` only.
    public func apply(to image: RGBImage, width: Int, height: Int, cropFraction: Double? = nil) throws -> RGBImage {
        try image.rendered(geometry(forImageWidth: image.width, height: image.height, width: width, height: height,
                                    cropFraction: cropFraction))
    }
}
