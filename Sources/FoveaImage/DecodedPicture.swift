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

/// Transparent pixels are composited over **black**, in every format (PNG,
/// WebP, HEIC, AVIF): what drawing the picture into a zeroed, premultiplied
/// RGBA buffer gives, which is how Core Graphics and Core Image (and so
/// Vision) turn a transparent image into a model's input. Compositing is on
/// the stored (gamma-encoded) values, as those libraries do.
enum AlphaCompositing {
    /// RGB over black from straight (not premultiplied) 8-bit RGBA: c × a / 255, rounded.
    static func rgb(fromRGBA rgba: UnsafeBufferPointer<UInt8>, pixelCount: Int) -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: pixelCount * 3)
        rgb.withUnsafeMutableBufferPointer { out in
            for p in 0..<pixelCount {
                let a = UInt32(rgba[4 * p + 3])
                for c in 0..<3 {
                    out[3 * p + c] = UInt8((UInt32(rgba[4 * p + c]) * a + 127) / 255)
                }
            }
        }
        return rgb
    }

    /// The same for 16-bit samples: c × a / 65535, rounded.
    static func rgb(fromRGBA16 rgba: [UInt16]) -> [UInt16] {
        let pixelCount = rgba.count / 4
        var rgb = [UInt16](repeating: 0, count: pixelCount * 3)
        for p in 0..<pixelCount {
            let a = UInt64(rgba[4 * p + 3])
            for c in 0..<3 {
                rgb[3 * p + c] = UInt16((UInt64(rgba[4 * p + c]) * a + 32767) / 65535)
            }
        }
        return rgb
    }
}
