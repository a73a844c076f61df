import Foundation

extension CGRect {
    /// The part of `image` inside this normalized region of interest (origin
    /// at the lower left, see `RGBImage.cropped(toNormalizedRegion:_:_:_:)`).
    func crop(_ image: RGBImage) throws -> RGBImage {
        try image.cropped(toNormalizedRegion: Double(minX), Double(minY), Double(width), Double(height))
    }

    /// The region's rectangle in pixels of `image`: x, y from the top left.
    func pixelRect(in image: RGBImage) throws -> (x: Int, y: Int, width: Int, height: Int) {
        try image.pixelRect(ofNormalizedRegion: Double(minX), Double(minY), Double(width), Double(height))
    }
}
