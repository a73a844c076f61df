import Foundation
import CPNG
import FoveaCore

/// Decodes PNG with libpng's simplified API (`png_image_*`), which reports
/// errors in `png_image.message` rather than through `longjmp`.
///
/// Every PNG becomes 8-bit RGB: palette and grayscale images are expanded,
/// 16-bit samples are reduced to 8 bits (taken as sRGB-encoded, as viewers and
/// PIL do, not as linear light), and an alpha channel (or `tRNS`
/// transparency: palette, grey, RGB) is composited over black, as in every
/// format (``AlphaCompositing``). libpng honours a `gAMA` chunk that differs
/// from sRGB (PIL ignores it), so such rare files can differ from PIL's
/// pixels. The colour chunks (`iCCP`, `sRGB`, `cHRM`) are read by
/// ``EmbeddedColorProfile``.
enum PNGDecoder {
    static func decode(_ data: Data, limits: ImageDecodingLimits = .default) throws -> RGBImage {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }

        return try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws -> RGBImage in
            // libpng's simplified API stops after the pixels and would accept a
            // file cut anywhere after its last IDAT; check the chunks first.
            if ContainerCompleteness.ofPNG(raw.bindMemory(to: UInt8.self)) == .truncated {
                throw FoveaError(.invalidImage, "truncated PNG data: the file ends before its IEND chunk (\(raw.count) bytes)")
            }
            guard png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count) != 0 else {
                throw failure(image)
            }
            let width = Int(image.width), height = Int(image.height)
            try limits.check(width: width, height: height)

            let hasAlpha = image.format & UInt32(PNG_FORMAT_FLAG_ALPHA) != 0
            let channels = hasAlpha ? 4 : 3
            // PNG_FORMAT_RGB / PNG_FORMAT_RGBA (compound macros Swift does not import).
            let rgb = UInt32(PNG_FORMAT_FLAG_COLOR)
            image.format = hasAlpha ? rgb | UInt32(PNG_FORMAT_FLAG_ALPHA) : rgb
            image.flags |= UInt32(PNG_IMAGE_FLAG_16BIT_sRGB)

            // Reading straight RGBA and compositing here (libpng's own compositing
            // for RGB output works in linear light) gives the same result as
            // every other format.
            var decoded = [UInt8](repeating: 0, count: width * height * channels)
            let rowStride = Int32(width * channels)
            let finished = decoded.withUnsafeMutableBytes { buffer in
                png_image_finish_read(&image, nil, buffer.baseAddress, rowStride, nil)
            }
            guard finished != 0 else { throw failure(image) }
            let pixels = hasAlpha
                ? decoded.withUnsafeBufferPointer { AlphaCompositing.rgb(fromRGBA: $0, pixelCount: width * height) }
                : decoded
            return RGBImage(uncheckedWidth: width, height: height, pixels: pixels)
        }
    }

    /// The error for a failed libpng call (truncation was ruled out before).
    private static func failure(_ image: png_image) -> FoveaError {
        FoveaError(.invalidImage, "corrupt PNG data (libpng: \(message(of: image)))")
    }

    /// libpng's NUL-terminated `message[64]` (shared with ``ImageEncoder``).
    static func message(of image: png_image) -> String {
        let text = withUnsafeBytes(of: image.message) { bytes in
            String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        return text.isEmpty ? "unknown error" : text
    }
}
