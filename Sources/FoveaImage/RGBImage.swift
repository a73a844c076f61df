import FoveaCore

/// An 8-bit RGB image in memory: `width × height` pixels, interleaved `R, G, B`,
/// row-major, top row first.
///
/// This is the common currency of `FoveaImage`: every decoder produces one, and
/// resampling, cropping and tensor conversion consume it. It is a value type
/// (copy-on-write pixels), so it is cheap to pass around and safe to share.
public struct RGBImage: Sendable, Equatable {
    /// Channels per pixel (R, G, B).
    public static let channelCount = 3

    /// The largest image Fovea will create, in pixels (2^28, about 268 megapixels,
    /// 805 MB of RGB). Decoders check a file's claimed size against it before they
    /// allocate, so a corrupt or hostile header cannot exhaust memory.
    public static let maxPixelCount = 1 << 28

    /// The longest side Fovea accepts, in pixels (2^18 = 262,144), which bounds
    /// the per-row and per-column work buffers of resampling.
    public static let maxSideLength = 1 << 18

    /// Width in pixels (> 0).
    public let width: Int
    /// Height in pixels (> 0).
    public let height: Int
    /// `width * height * 3` bytes: `R, G, B` for each pixel, rows top to bottom.
    public let pixels: [UInt8]

    /// Creates an image from interleaved RGB bytes.
    ///
    /// Throws `.invalidImage` if a side is zero or negative, the image exceeds
    /// ``maxSideLength`` or ``maxPixelCount``, or `pixels.count != width * height * 3`.
    public init(width: Int, height: Int, pixels: [UInt8]) throws {
        try RGBImage.checkSize(width: width, height: height)
        let expected = width * height * RGBImage.channelCount
        guard pixels.count == expected else {
            throw FoveaError(.invalidImage, "a \(width)×\(height) RGB image needs \(expected) bytes, found \(pixels.count)")
        }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// An image of one colour.
    public init(width: Int, height: Int, red: UInt8, green: UInt8, blue: UInt8) throws {
        try RGBImage.checkSize(width: width, height: height)
        var pixels = [UInt8](repeating: 0, count: width * height * RGBImage.channelCount)
        for i in stride(from: 0, to: pixels.count, by: RGBImage.channelCount) {
            pixels[i] = red
            pixels[i + 1] = green
            pixels[i + 2] = blue
        }
        self.init(uncheckedWidth: width, height: height, pixels: pixels)
    }

    /// For code in this module that has already established the invariants.
    init(uncheckedWidth width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Throws unless `width × height` is a valid, non-empty image size.
    static func checkSize(width: Int, height: Int) throws {
        guard width > 0, height > 0 else {
            throw FoveaError(.invalidImage, "image is empty (\(width)×\(height)); both sides must be at least 1")
        }
        guard width <= maxSideLength, height <= maxSideLength else {
            throw FoveaError(.invalidImage, "image of \(width)×\(height) pixels has a side longer than the limit of \(maxSideLength)")
        }
        guard width * height <= maxPixelCount else {
            throw FoveaError(.invalidImage, "image of \(width)×\(height) pixels is larger than the limit of \(maxPixelCount) pixels")
        }
    }

    /// The `(red, green, blue)` of the pixel at column `x`, row `y`, or `nil` outside the image.
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8)? {
        guard x >= 0, x < width, y >= 0, y < height else { return nil }
        let i = (y * width + x) * RGBImage.channelCount
        return (pixels[i], pixels[i + 1], pixels[i + 2])
    }
}
