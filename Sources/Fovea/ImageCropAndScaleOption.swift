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

    /// The picture a model with a `width × height` input sees for `image`
    /// (already upright): after crop and scale, before normalization.
    /// `cropFraction` applies to `.centerCrop` only.
    public func apply(to image: RGBImage, width: Int, height: Int, cropFraction: Double? = nil) throws -> RGBImage {
        switch self {
        case .centerCrop: return try image.centerCropped(toWidth: width, height: height, cropFraction: cropFraction ?? 1)
        case .scaleFill: return try image.resized(width: width, height: height)
        case .scaleFit: return try image.letterboxed(toWidth: width, height: height)
        }
    }
}
