import FoveaCore

/// How large an image the decoders accept, checked from the file's header
/// before any pixel is decoded: a 519-byte JPEG can declare 16000×16000 pixels
/// (768 MB of RGB, more while a progressive file is decoded), and is refused
/// at once with a `.limitExceeded` error instead.
public struct ImageDecodingLimits: Sendable, Equatable, Hashable {
    /// The most pixels (width × height) an image may declare. Default: 100
    /// megapixels (300 MB of RGB), beyond any camera photo; at most
    /// ``RGBImage/maxPixelCount``.
    public var maxPixelCount: Int

    /// Creates limits; `maxPixelCount` is clamped to `1...RGBImage.maxPixelCount`.
    public init(maxPixelCount: Int = ImageDecodingLimits.defaultMaxPixelCount) {
        self.maxPixelCount = Swift.min(Swift.max(1, maxPixelCount), RGBImage.maxPixelCount)
    }

    /// 100 megapixels.
    public static let defaultMaxPixelCount = 100_000_000

    /// The default limits: ``defaultMaxPixelCount`` pixels.
    public static let `default` = ImageDecodingLimits()

    /// Throws unless `width × height` is a valid size within these limits (and
    /// ``RGBImage``'s own bounds).
    public func check(width: Int, height: Int) throws {
        try RGBImage.checkSize(width: width, height: height)
        guard width * height <= maxPixelCount else {
            let megapixels = String(format: "%.1f", Double(width * height) / 1e6)
            throw FoveaError(.limitExceeded, "image of \(width)×\(height) pixels (\(megapixels) megapixels) is larger than the limit of \(maxPixelCount) pixels; raise it with ImageDecodingLimits or --max-pixels")
        }
    }
}

import Foundation
