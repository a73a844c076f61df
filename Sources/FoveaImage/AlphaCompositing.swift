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
