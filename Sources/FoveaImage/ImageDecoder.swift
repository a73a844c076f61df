import Foundation
import FoveaCore

/// The encoded image formats ``ImageDecoder`` reads.
public enum ImageFormat: String, Sendable, Equatable, CaseIterable {
    /// JPEG (baseline, progressive, arithmetic-coded; YCbCr, grayscale,
    /// CMYK/YCCK), decoded by libjpeg-turbo.
    case jpeg
    /// PNG (any bit depth and colour type), decoded by libpng's simplified API.
    case png
    /// Binary Netpbm: `P6` (RGB) and `P5` (grayscale).
    case ppm
    /// HEIC/HEIF (HEVC), decoded by libheif with libde265.
    case heif
    /// AVIF (AV1 in HEIF), decoded by libheif with dav1d or aom.
    case avif
    /// WebP (lossy, lossless, alpha, animated: the first frame), decoded by libwebp.
    case webp
}

/// Decodes JPEG, PNG, HEIC/HEIF, AVIF, WebP and binary PPM/PGM files into
/// ``RGBImage``s, with colours matched to sRGB (``ColorMatching``) and
/// transparency composited over black (``AlphaCompositing``); docs/formats.md
/// has the table.
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
    ///   - colorMatching: whether colours are matched from the file's profile to sRGB.
    public static func decode(contentsOf path: String, limits: ImageDecodingLimits = .default,
                              colorMatching: ColorMatching = .auto) throws -> RGBImage {
        let data = try readFile(path)
        return try decode(data: data, fileName: path, limits: limits, colorMatching: colorMatching)
    }

    /// Decodes an encoded image held in memory; `fileName`, if given, is used in error messages.
    public static func decode(data: Data, fileName: String? = nil, limits: ImageDecodingLimits = .default,
                              colorMatching: ColorMatching = .auto) throws -> RGBImage {
        try FoveaError.at(FoveaError.Location(file: fileName)) {
            try picture(data, limits: limits).rgbImage(colorMatching)
        }
    }

    /// The stored pixels and the declared colour profile, before colour matching.
    static func picture(_ data: Data, limits: ImageDecodingLimits) throws -> DecodedPicture {
        guard !data.isEmpty else {
            throw FoveaError(.invalidImage, "image is empty (0 bytes)")
        }
        guard let format = format(of: data) else {
            throw FoveaError(.invalidImage, "not a JPEG, PNG, HEIC, AVIF, WebP or PPM image (starts with \(describeLeadingBytes(data)))")
        }
        switch format {
        case .jpeg:
            let image = try JPEGDecoder.decode(data, limits: limits)
            return DecodedPicture(width: image.width, height: image.height, samples: .rgb8(image.pixels),
                                  profile: try EmbeddedColorProfile.inJPEG(data))
        case .png:
            let image = try PNGDecoder.decode(data, limits: limits)
            return DecodedPicture(width: image.width, height: image.height, samples: .rgb8(image.pixels),
                                  profile: try EmbeddedColorProfile.inPNG(data))
        case .ppm:
            let image = try PPMDecoder.decode(data, limits: limits)
            return DecodedPicture(width: image.width, height: image.height, samples: .rgb8(image.pixels), profile: nil)
        case .heif, .avif:
            return try HEIFDecoder.decode(data, limits: limits)
        case .webp:
            return try WebPDecoder.decode(data, limits: limits)
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
        let riffMagic: [UInt8] = [0x52, 0x49, 0x46, 0x46]  // "RIFF", then the size and "WEBP"
        if data.starts(with: jpegMagic) { return .jpeg }
        if data.starts(with: pngMagic) { return .png }
        if data.starts(with: riffMagic) { return .webp }
        if let brand = ISOMediaBrands.imageFormat(of: data) { return brand }
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
        try FileContents.read(path, expected: "an image file (JPEG, PNG, HEIC, AVIF, WebP or PPM)")
    }
}
