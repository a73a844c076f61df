import Foundation
import CWebP
import FoveaCore

/// Decodes WebP with libwebp: lossy (VP8), lossless (VP8L), with alpha
/// (composited over black, ``AlphaCompositing``), and animated files' first
/// frame (placed on the canvas at its offset). The `ICCP` chunk is the
/// colour profile; EXIF orientation is read by ``EXIFOrientation``.
enum WebPDecoder {
    static func decode(_ data: Data, limits: ImageDecodingLimits = .default) throws -> DecodedPicture {
        let bytes = [UInt8](data)
        guard bytes.count >= 12 else {
            throw FoveaError(.invalidImage, "truncated WebP data: \(bytes.count) bytes, shorter than its RIFF header")
        }
        guard bytes[8..<12].elementsEqual("WEBP".utf8) else {
            throw FoveaError(.invalidImage, "not a WebP image: a RIFF file of type '\(SafeText.escaped(String(decoding: bytes[8..<12], as: UTF8.self)))'")
        }
        let riffSize = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
        guard 8 + riffSize <= bytes.count else {
            throw FoveaError(.invalidImage, "truncated WebP data: the RIFF header declares \(8 + riffSize) bytes, the file has \(bytes.count)")
        }
        let profile = try EmbeddedColorProfile.inWebP(data)
        return try bytes.withUnsafeBufferPointer { buffer in
            var webpData = WebPData(bytes: buffer.baseAddress, size: buffer.count)
            guard let demux = WebPDemux(&webpData) else {
                throw FoveaError(.invalidImage, "corrupt WebP data (libwebp cannot parse its chunks)")
            }
            defer { WebPDemuxDelete(demux) }
            let width = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH))
            let height = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT))
            try limits.check(width: width, height: height)

            var frame = WebPIterator()
            guard WebPDemuxGetFrame(demux, 1, &frame) != 0 else {
                throw FoveaError(.invalidImage, "corrupt WebP data: no first frame")
            }
            defer { WebPDemuxReleaseIterator(&frame) }
            let fills = frame.x_offset == 0 && frame.y_offset == 0 && Int(frame.width) == width && Int(frame.height) == height
            if fills, frame.has_alpha == 0 {
                var rgb = [UInt8](repeating: 0, count: width * height * 3)
                try decodeFrame(frame, into: &rgb, rgba: false, width: width)
                return DecodedPicture(width: width, height: height, samples: .rgb8(rgb), profile: profile)
            }
            // A frame with alpha, or smaller than the canvas: onto a transparent canvas, then over black.
            var canvas = [UInt8](repeating: 0, count: width * height * 4)
            var pixels = [UInt8](repeating: 0, count: Int(frame.width) * Int(frame.height) * 4)
            try decodeFrame(frame, into: &pixels, rgba: true, width: Int(frame.width))
            let rowBytes = Int(frame.width) * 4
            for y in 0..<Int(frame.height) {
                let to = ((Int(frame.y_offset) + y) * width + Int(frame.x_offset)) * 4
                canvas.replaceSubrange(to..<(to + rowBytes), with: pixels[(y * rowBytes)..<((y + 1) * rowBytes)])
            }
            let rgb = canvas.withUnsafeBufferPointer { AlphaCompositing.rgb(fromRGBA: $0, pixelCount: width * height) }
            return DecodedPicture(width: width, height: height, samples: .rgb8(rgb), profile: profile)
        }
    }

    /// Decodes the frame's VP8/VP8L (and ALPH) data into `output`, rows of `width` pixels.
    private static func decodeFrame(_ frame: WebPIterator, into output: inout [UInt8], rgba: Bool, width: Int) throws {
        let stride = Int32(width * (rgba ? 4 : 3))
        let count = output.count
        let decoded = output.withUnsafeMutableBufferPointer { out in
            rgba ? WebPDecodeRGBAInto(frame.fragment.bytes, frame.fragment.size, out.baseAddress, count, stride)
                 : WebPDecodeRGBInto(frame.fragment.bytes, frame.fragment.size, out.baseAddress, count, stride)
        }
        guard decoded != nil else {
            throw FoveaError(.invalidImage, "corrupt WebP data: libwebp cannot decode the \(frame.num_frames > 1 ? "first frame" : "image") (\(frame.width)×\(frame.height))")
        }
    }
}
