import Foundation
import FoveaCore

/// Reads binary Netpbm images: `P6` (RGB) and `P5` (grayscale, expanded to RGB).
///
/// The header is `magic width height maxval`, separated by whitespace, with `#`
/// comments running to the end of a line; a single whitespace byte follows
/// `maxval`, then the raster. Samples are one byte when `maxval < 256`, else two
/// bytes big-endian, and are scaled to 0…255 as `round(v * 255 / maxval)`
/// (halves round up). Bytes after the raster are ignored.
enum PPMDecoder {
    static func decode(_ data: Data, limits: ImageDecodingLimits = .default) throws -> RGBImage {
        let bytes = [UInt8](data)
        var reader = HeaderReader(bytes: bytes)
        let magic = try reader.magic()
        let channels: Int
        switch magic {
        case "P6": channels = 3
        case "P5": channels = 1
        case "P1", "P2", "P3", "P4", "P7":
            throw FoveaError(.invalidImage, "Netpbm type \(magic) is not supported; only binary P6 (RGB) and P5 (grayscale)")
        default:
            throw FoveaError(.invalidImage, "not a PPM image (magic '\(magic)')")
        }
        let width = try reader.number("width")
        let height = try reader.number("height")
        let maxval = try reader.number("maxval")
        guard (1...65535).contains(maxval) else {
            throw FoveaError(.invalidImage, "PPM maxval is \(maxval); expected 1…65535")
        }
        try limits.check(width: width, height: height)
        try reader.singleWhitespace()

        let bytesPerSample = maxval < 256 ? 1 : 2
        let sampleCount = width * height * channels
        let rasterStart = reader.position
        let available = bytes.count - rasterStart
        guard available >= sampleCount * bytesPerSample else {
            throw FoveaError(.invalidImage, "truncated PPM data: \(width)×\(height) \(magic) with maxval \(maxval) needs \(sampleCount * bytesPerSample) bytes of pixels, found \(available)")
        }

        let samples = try scaledSamples(bytes, from: rasterStart, count: sampleCount, maxval: maxval)
        guard channels == 1 else {
            return RGBImage(uncheckedWidth: width, height: height, pixels: samples)
        }
        var rgb = [UInt8](repeating: 0, count: sampleCount * 3)
        for (i, gray) in samples.enumerated() {
            rgb[3 * i] = gray
            rgb[3 * i + 1] = gray
            rgb[3 * i + 2] = gray
        }
        return RGBImage(uncheckedWidth: width, height: height, pixels: rgb)
    }

    /// `count` samples starting at `start`, scaled from 0…maxval to 0…255.
    private static func scaledSamples(_ bytes: [UInt8], from start: Int, count: Int, maxval: Int) throws -> [UInt8] {
        if maxval == 255 {
            return Array(bytes[start..<(start + count)])
        }
        var samples = [UInt8](repeating: 0, count: count)
        let twoBytes = maxval >= 256
        for i in 0..<count {
            let value = twoBytes
                ? Int(bytes[start + 2 * i]) << 8 | Int(bytes[start + 2 * i + 1])
                : Int(bytes[start + i])
            guard value <= maxval else {
                throw FoveaError(.invalidImage, "PPM sample \(i) is \(value), above maxval \(maxval)")
            }
            samples[i] = UInt8((2 * value * 255 + maxval) / (2 * maxval))
        }
        return samples
    }

    /// Walks the ASCII header, skipping whitespace and `#` comments.
    private struct HeaderReader {
        let bytes: [UInt8]
        var position = 0

        mutating func magic() throws -> String {
            guard bytes.count >= 2 else {
                throw FoveaError(.invalidImage, "truncated PPM header: \(bytes.count) bytes")
            }
            position = 2
            let magic = String(decoding: bytes[0..<2], as: UTF8.self)
            if position < bytes.count, !Self.isWhitespace(bytes[position]), bytes[position] != UInt8(ascii: "#") {
                throw FoveaError(.invalidImage, "bad PPM header: magic '\(magic)' is not followed by whitespace")
            }
            return magic
        }

        /// The next decimal field; `name` is used in error messages.
        mutating func number(_ name: String) throws -> Int {
            skipWhitespaceAndComments()
            guard position < bytes.count else {
                throw FoveaError(.invalidImage, "truncated PPM header: missing \(name)")
            }
            var value = 0
            var digits = 0
            while position < bytes.count, let digit = Self.digitValue(bytes[position]) {
                value = value * 10 + digit
                digits += 1
                position += 1
                // Nine digits already exceed every valid field; stop before overflow.
                guard digits <= 9 else {
                    throw FoveaError(.invalidImage, "PPM \(name) has too many digits")
                }
            }
            guard digits > 0 else {
                throw FoveaError(.invalidImage, "bad PPM header: \(name) is not a number (found byte 0x\(String(bytes[position], radix: 16)))")
            }
            if position < bytes.count, !Self.isWhitespace(bytes[position]), bytes[position] != UInt8(ascii: "#") {
                throw FoveaError(.invalidImage, "bad PPM header: \(name) is followed by byte 0x\(String(bytes[position], radix: 16)), not whitespace")
            }
            return value
        }

        /// The one whitespace byte between `maxval` and the raster.
        mutating func singleWhitespace() throws {
            guard position < bytes.count else {
                throw FoveaError(.invalidImage, "truncated PPM data: header ends before the pixels")
            }
            guard Self.isWhitespace(bytes[position]) else {
                throw FoveaError(.invalidImage, "bad PPM header: expected whitespace after maxval")
            }
            position += 1
        }

        private mutating func skipWhitespaceAndComments() {
            while position < bytes.count {
                if Self.isWhitespace(bytes[position]) {
                    position += 1
                } else if bytes[position] == UInt8(ascii: "#") {
                    while position < bytes.count, bytes[position] != UInt8(ascii: "\n"), bytes[position] != UInt8(ascii: "\r") {
                        position += 1
                    }
                } else {
                    return
                }
            }
        }

        private static func digitValue(_ byte: UInt8) -> Int? {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
        }

        private static func isWhitespace(_ byte: UInt8) -> Bool {
            byte == 0x20 || (0x09...0x0D).contains(byte)
        }
    }
}

extension RGBImage {
    /// The image as a binary PPM (`P6`, maxval 255): the header `P6\n<w> <h>\n255\n`,
    /// then the RGB bytes. Readable by ``ImageDecoder``, PIL, and every Netpbm tool.
    public func ppmData() -> Data {
        var data = Data("P6\n\(width) \(height)\n255\n".utf8)
        data.append(contentsOf: pixels)
        return data
    }
}
