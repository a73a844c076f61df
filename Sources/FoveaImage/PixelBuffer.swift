import Foundation
import FoveaCore

/// The layout of one pixel in a ``PixelBuffer``.
public enum PixelFormat: String, Sendable, Equatable, CaseIterable {
    /// Red, green, blue: 3 bytes.
    case rgb8
    /// Red, green, blue, alpha: 4 bytes (alpha ignored).
    case rgba8
    /// Blue, green, red, alpha: 4 bytes (alpha ignored), the usual camera and
    /// `CVPixelBuffer` layout.
    case bgra8
    /// One gray byte.
    case gray8

    /// Bytes per pixel.
    public var bytesPerPixel: Int {
        switch self {
        case .rgb8: return 3
        case .rgba8, .bgra8: return 4
        case .gray8: return 1
        }
    }
}

/// Raw pixels in memory, such as a camera frame or a buffer from another
/// library: `height` rows of `bytesPerRow` bytes, each row starting with
/// `width` pixels of `format` (any bytes after them are padding).
public struct PixelBuffer: Sendable, Equatable {
    /// Pixels per row (padding bytes at the end of a row not counted).
    public var width: Int
    /// The number of rows, top to bottom.
    public var height: Int
    /// Bytes from the start of one row to the next: at least `width × format.bytesPerPixel`.
    public var bytesPerRow: Int
    /// The layout of each pixel's bytes.
    public var format: PixelFormat
    /// The pixels: `height × bytesPerRow` bytes, top row first.
    public var bytes: [UInt8]

    /// `bytesPerRow` defaults to `width × format.bytesPerPixel` (no padding).
    /// The sizes are checked when the buffer is converted (``RGBImage/init(pixelBuffer:)``).
    public init(width: Int, height: Int, bytesPerRow: Int? = nil, format: PixelFormat, bytes: [UInt8]) {
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow ?? width * format.bytesPerPixel
        self.format = format
        self.bytes = bytes
    }
}

extension RGBImage {
    /// The buffer's pixels as RGB (alpha dropped, gray repeated on R, G and B).
    ///
    /// Throws `.invalidImage` for an empty or oversized image, a row stride
    /// shorter than a row of pixels, or a byte count that does not hold
    /// `height` rows (the last row may omit its padding).
    public init(pixelBuffer buffer: PixelBuffer) throws {
        let (width, height, format) = (buffer.width, buffer.height, buffer.format)
        try RGBImage.checkSize(width: width, height: height)
        let rowBytes = width * format.bytesPerPixel
        guard buffer.bytesPerRow >= rowBytes else {
            throw FoveaError(.invalidImage, "pixel buffer rows are \(buffer.bytesPerRow) bytes; a row of \(width) \(format.rawValue) pixels needs at least \(rowBytes)")
        }
        let (stride, overflow) = buffer.bytesPerRow.multipliedReportingOverflow(by: height - 1)
        guard !overflow, stride <= Int.max - rowBytes else {
            throw FoveaError(.invalidImage, "pixel buffer of \(height) rows of \(buffer.bytesPerRow) bytes is too large")
        }
        let needed = stride + rowBytes
        guard buffer.bytes.count >= needed else {
            throw FoveaError(.invalidImage, "a \(width)×\(height) \(format.rawValue) pixel buffer with \(buffer.bytesPerRow) bytes per row needs \(needed) bytes, found \(buffer.bytes.count)")
        }
        var rgb = [UInt8](repeating: 0, count: width * height * RGBImage.channelCount)
        buffer.bytes.withUnsafeBufferPointer { input in
            rgb.withUnsafeMutableBufferPointer { output in
                for y in 0..<height {
                    let row = y * buffer.bytesPerRow
                    for x in 0..<width {
                        let i = row + x * format.bytesPerPixel
                        let o = (y * width + x) * RGBImage.channelCount
                        switch format {
                        case .rgb8, .rgba8:
                            output[o] = input[i]; output[o + 1] = input[i + 1]; output[o + 2] = input[i + 2]
                        case .bgra8:
                            output[o] = input[i + 2]; output[o + 1] = input[i + 1]; output[o + 2] = input[i]
                        case .gray8:
                            output[o] = input[i]; output[o + 1] = input[i]; output[o + 2] = input[i]
                        }
                    }
                }
            }
        }
        self.init(uncheckedWidth: width, height: height, pixels: rgb)
    }
}
