import FoveaCore

/// Pixels as a decoder produced them, before colour matching: RGB, alpha
/// already composited (``AlphaCompositing``), 8 bits per sample or 16 (a
/// 10- or 12-bit HEIC/AVIF, scaled to the full 16-bit range so that colour
/// matching rounds to 8 bits once, without banding), and the colour profile
/// the file declares.
struct DecodedPicture {
    enum Samples {
        case rgb8([UInt8])
        case rgb16([UInt16])
    }

    var width: Int, height: Int
    var samples: Samples
    var profile: ColorProfile?

    /// The 8-bit sRGB image: matched from ``profile`` (with `.auto`) or with the stored values (`.off`).
    func rgbImage(_ matching: ColorMatching) throws -> RGBImage {
        let count = width * height
        let conversion: SRGBColorTransforms.Conversion
        if matching == .auto, let profile {
            conversion = try SRGBColorTransforms.conversion(for: profile, sixteenBit: isSixteenBit)
        } else {
            conversion = .identity
        }
        switch (samples, conversion) {
        case (.rgb8(let pixels), .identity):
            return RGBImage(uncheckedWidth: width, height: height, pixels: pixels)
        case (.rgb8(var pixels), .transform(let transform)):
            pixels.withUnsafeMutableBytes { transform.convert($0.baseAddress!, to: $0.baseAddress!, count: count) }
            return RGBImage(uncheckedWidth: width, height: height, pixels: pixels)
        case (.rgb16(let wide), .identity):
            return RGBImage(uncheckedWidth: width, height: height, pixels: wide.map { UInt8((UInt32($0) * 255 + 32767) / 65535) })
        case (.rgb16(let wide), .transform(let transform)):
            var pixels = [UInt8](repeating: 0, count: count * RGBImage.channelCount)
            wide.withUnsafeBytes { input in
                pixels.withUnsafeMutableBytes { transform.convert(input.baseAddress!, to: $0.baseAddress!, count: count) }
            }
            return RGBImage(uncheckedWidth: width, height: height, pixels: pixels)
        }
    }

    private var isSixteenBit: Bool {
        if case .rgb16 = samples { return true }
        return false
    }
}
