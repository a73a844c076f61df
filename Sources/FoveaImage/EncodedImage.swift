import Foundation
import FoveaCore

/// An image file whose pixels are decoded when they are needed, at the size
/// they are needed.
///
/// Making one checks the format and, for a JPEG, reads its header: an
/// unsupported file, a header that declares no size or more pixels than
/// `limits` allow fails at once. A JPEG's pixels are then decoded by
/// ``decoded(reducedBy:)``, which can ask libjpeg-turbo for 1/2, 1/4 or 1/8
/// of the stored size: the DCT does the reduction (only the low frequencies of
/// each 8×8 block are transformed back), so decoding costs and allocates a
/// fraction of a full decode. PNG, HEIC, AVIF, WebP and PPM files have no
/// such reduction and are decoded at once, in full. Colours are matched to
/// sRGB (``ColorMatching``) after decoding, at the decoded size: for a
/// reduced JPEG, on the reduced pixels.
public struct EncodedImage: Sendable {
    /// The format the data's magic bytes announce.
    public let format: ImageFormat
    /// The stored size, before any orientation is applied.
    public let width: Int, height: Int
    /// Names the image in error messages.
    public let fileName: String?

    private let storage: Storage
    private let limits: ImageDecodingLimits
    private let colorMatching: ColorMatching
    private enum Storage: Sendable {
        case jpeg(Data, ColorProfile?)
        case decoded(RGBImage)
    }

    /// - Throws: `.invalidImage` (naming `fileName`) for data that is not a
    ///   supported image, whose header or colour profile is damaged,
    ///   `.limitExceeded` beyond `limits`.
    public init(data: Data, fileName: String? = nil, limits: ImageDecodingLimits = .default,
                colorMatching: ColorMatching = .auto) throws {
        self.fileName = fileName
        self.limits = limits
        self.colorMatching = colorMatching
        if ImageDecoder.format(of: data) == .jpeg {
            let (size, profile) = try FoveaError.at(FoveaError.Location(file: fileName)) {
                (try JPEGDecoder.size(of: data, limits: limits), colorMatching == .auto ? try EmbeddedColorProfile.inJPEG(data) : nil)
            }
            (format, width, height) = (.jpeg, size.width, size.height)
            storage = .jpeg(data, profile)
        } else {
            let image = try ImageDecoder.decode(data: data, fileName: fileName, limits: limits, colorMatching: colorMatching)
            format = ImageDecoder.format(of: data) ?? .ppm
            (width, height) = (image.width, image.height)
            storage = .decoded(image)
        }
    }

    /// Whether ``decoded(reducedBy:)`` can give a smaller picture than the stored one (a JPEG).
    public var canDecodeReduced: Bool {
        if case .jpeg = storage { return true }
        return false
    }

    /// The largest reduction (8, 4 or 2; else 1, full size) whose decoded size
    /// `isLargeEnough` accepts. Each side of a reduced picture is the stored
    /// side divided by the reduction, rounded up. Always 1 for formats other than JPEG.
    ///
    /// - Parameter isLargeEnough: given a candidate decoded width and height
    ///   (as stored, before orientation), whether it still has enough pixels.
    public func reduction(where isLargeEnough: (_ width: Int, _ height: Int) -> Bool) -> Int {
        guard canDecodeReduced else { return 1 }
        return JPEGDecoder.reductions.first {
            isLargeEnough(JPEGDecoder.reduced(width, by: $0), JPEGDecoder.reduced(height, by: $0))
        } ?? 1
    }

    /// The stored pixels, in full (`reduction` 1) or, for a JPEG, at
    /// 1/`reduction` of each side (2, 4 or 8; other values decode in full).
    ///
    /// - Throws: `.invalidImage` (naming the file) for corrupt or truncated pixel data.
    public func decoded(reducedBy reduction: Int = 1) throws -> RGBImage {
        switch storage {
        case .decoded(let image):
            return image
        case .jpeg(let data, let profile):
            return try FoveaError.at(FoveaError.Location(file: fileName)) {
                let image = try JPEGDecoder.decode(data, limits: limits, reducedBy: reduction)
                return try DecodedPicture(width: image.width, height: image.height, samples: .rgb8(image.pixels), profile: profile)
                    .rgbImage(colorMatching)
            }
        }
    }
}
