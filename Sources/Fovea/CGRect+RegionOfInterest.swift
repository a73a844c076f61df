import Foundation

extension CGRect {
    /// The part of `image` inside this normalized region of interest (origin
    /// at the lower left, see `RGBImage.cropped(toNormalizedRegion:_:_:_:)`).
    package func crop(_ image: RGBImage) throws -> RGBImage {
        if isWholeImage { return image }
        return try image.cropped(toNormalizedRegion: Double(minX), Double(minY), Double(width), Double(height))
    }

    /// Whether this is the default region, the whole image: then nothing is
    /// cropped, and a handler may decode a JPEG reduced for the request.
    package var isWholeImage: Bool { self == CGRect(x: 0, y: 0, width: 1, height: 1) }

    /// The region's rectangle in pixels of `image`: x, y from the top left.
    package func pixelRect(in image: RGBImage) throws -> (x: Int, y: Int, width: Int, height: Int) {
        try image.pixelRect(ofNormalizedRegion: Double(minX), Double(minY), Double(width), Double(height))
    }
}
