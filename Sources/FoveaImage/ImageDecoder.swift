import Foundation
import FoveaCore

/// The encoded image formats ``ImageDecoder`` reads.
public enum ImageFormat: String, Sendable, Equatable, CaseIterable {
    /// JPEG (baseline, progressive; YCbCr, grayscale, CMYK/YCCK), decoded by libjpeg-turbo.
    case jpeg
    /// PNG (any bit depth and colour type), decoded by libpng's simplified API.
    case png
    /// Binary Netpbm: `P6` (RGB) and `P5` (grayscale).
    case ppm
}

/// Decodes JPEG, PNG and binary PPM/PGM files into ``RGBImage``s.
///
/// The format is chosen from the first bytes of the data, never from the file
/// name's extension. Every failure is a `FoveaError`: `.io` when the file cannot
/// be read, `.invalidImage` (with `location.file` set) when its bytes are not a
/// complete, valid image. Decoding is thread-safe.
public enum ImageDecoder {
    /// Reads and decodes the image file at `path`.
    ///
    /// - Parameter limits: the largest image accepted, checked from the header
    ///   before decoding (`.limitExceeded` above it).
    public static func decode(contentsOf path: String, limits: ImageDecodingLimits = .default) throws -> RGBImage {
        let data = try readFile(path)
        return try decode(data: data, fileName: path, limits: limits)
    }

    /// Decodes an encoded image held in memory; `fileName`, if given, is used in error messages.
    public static func decode(data: Data, fileName: String? = nil, limits: ImageDecodingLimits = .default) throws -> RGBImage {
        try FoveaError.at(FoveaError.Location(file: fileName)) {
            guard !data.isEmpty else {
                throw FoveaError(.invalidImage, "image is empty (0 bytes)")
            }
            guard let format = format(of: data) else {
                throw FoveaError(.invalidImage, "not a JPEG, PNG or PPM image (starts with \(describeLeadingBytes(data)))")
            }
            switch format {
            case .jpeg: return try JPEGDecoder.decode(data, limits: limits)
            case .png: return try PNGDecoder.decode(data, limits: limits)
            case .ppm: return try PPMDecoder.decode(data, limits: limits)
            }
        }
    }

    /// The format the data's magic bytes announce, or `nil` if it is none Fovea reads.
    ///
    /// Other Netpbm variants (`P1`–`P4`, `P7`) are reported as `.ppm` so that the
    /// PPM decoder can say precisely why it does not read them.
    public static func format(of data: Data) -> ImageFormat? {
        // Short prefixes on purpose: a file cut inside its signature should be
        // reported as a truncated JPEG or PNG by its decoder, not as "unknown".
        let jpegMagic: [UInt8] = [0xFF, 0xD8]  // SOI
        let pngMagic: [UInt8] = [0x89, 0x50, 0x4E, 0x47]  // "\x89PNG"
        if data.starts(with: jpegMagic) { return .jpeg }
        if data.starts(with: pngMagic) { return .png }
        if data.count >= 2, data[data.startIndex] == UInt8(ascii: "P"),
           (UInt8(ascii: "1")...UInt8(ascii: "7")).contains(data[data.startIndex + 1]) {
            return .ppm
        }
        return nil
    }

    /// `0x47 0x49` — the first two bytes (or the only one), for error messages.
    static func describeLeadingBytes(_ data: Data) -> String {
        data.prefix(2).map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return "0x" + (hex.count == 1 ? "0" + hex : hex)
        }.joined(separator: " ")
    }

    /// The whole file, or a `.io` error naming the file and the reason.
    static func readFile(_ path: String) throws -> Data {
        try FileContents.read(path, expected: "an image file (JPEG, PNG or PPM)")
    }
}
