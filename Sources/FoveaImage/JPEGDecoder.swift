import Foundation
import CTurboJPEG
import FoveaCore

/// Decodes JPEG with libjpeg-turbo's TurboJPEG API.
///
/// Uses the accurate integer IDCT and libjpeg's default ("fancy") chroma
/// upsampling — what PIL does — so pixels match `Image.open(f).convert("RGB")`.
/// Grayscale JPEGs are expanded to RGB; CMYK and YCCK JPEGs are decoded to CMYK
/// and converted as PIL does (Adobe's inverted polarity, no colour management).
///
/// libjpeg reports recoverable damage as a *warning* and still fills the picture
/// (a truncated file comes out half grey). Fovea treats every warning as an error,
/// except "extraneous bytes before marker" in an otherwise complete file, which
/// is harmless and common in camera files.
enum JPEGDecoder {
    static func decode(_ data: Data, limits: ImageDecodingLimits = .default) throws -> RGBImage {
        guard let handle = tjInitDecompress() else {
            throw FoveaError(.invalidImage, "cannot start the JPEG decoder (libjpeg-turbo: \(errorText(nil)))")
        }
        defer { tjDestroy(handle) }

        return try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws -> RGBImage in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard let jpeg = bytes.baseAddress else {
                throw FoveaError(.invalidImage, "image is empty (0 bytes)")
            }
            let size = UInt(raw.count)
            var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
            if tjDecompressHeader3(handle, jpeg, size, &width, &height, &subsampling, &colorspace) != 0,
               !isHarmlessWarning(handle, bytes) {
                throw failure("libjpeg-turbo: \(errorText(handle))", stage: "header", bytes)
            }
            // libjpeg-turbo 2.1 accepts a stream that ends before its frame header and reports 0×0.
            guard width > 0, height > 0 else {
                throw failure("no frame header (SOF) before the end of the data", stage: "header", bytes)
            }
            let w = Int(width), h = Int(height)
            try limits.check(width: w, height: h)

            let isCMYK = colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
            let pixelFormat = isCMYK ? TJPF_CMYK : TJPF_RGB
            let channels = isCMYK ? 4 : 3
            // LIMITSCANS stops progressive files with thousands of scans (a known DoS).
            let flags = TJFLAG_ACCURATEDCT | TJFLAG_LIMITSCANS
            var decoded = [UInt8](repeating: 0, count: w * h * channels)
            let status = decoded.withUnsafeMutableBufferPointer { buffer in
                tjDecompress2(handle, jpeg, size, buffer.baseAddress, width, 0, height, Int32(pixelFormat.rawValue), flags)
            }
            if status != 0, !isHarmlessWarning(handle, bytes) {
                throw failure("libjpeg-turbo: \(errorText(handle))", stage: "pixels", bytes)
            }
            let pixels = isCMYK ? rgbFromAdobeCMYK(decoded) : decoded
            return RGBImage(uncheckedWidth: w, height: h, pixels: pixels)
        }
    }

    /// PIL's CMYK → RGB for JPEG data: the stored values are Adobe-inverted
    /// (`stored = 255 - ink`), and `R = (255 - K) - (255 - K) * C / 255`, rounded as
    /// PIL's `MULDIV255`.
    static func rgbFromAdobeCMYK(_ cmyk: [UInt8]) -> [UInt8] {
        let pixelCount = cmyk.count / 4
        var rgb = [UInt8](repeating: 0, count: pixelCount * 3)
        for p in 0..<pixelCount {
            let notBlack = Int(cmyk[4 * p + 3])  // 255 - K
            for c in 0..<3 {
                let ink = 255 - Int(cmyk[4 * p + c])
                let t = ink * notBlack + 128
                let scaled = ((t >> 8) + t) >> 8
                rgb[3 * p + c] = UInt8(clamping: notBlack - scaled)
            }
        }
        return rgb
    }

    /// Whether the last failure is only libjpeg's "extraneous bytes before marker"
    /// warning, in a file that is otherwise complete.
    private static func isHarmlessWarning(_ handle: tjhandle, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue)
            && errorText(handle).contains("extraneous bytes before marker")
            && ContainerCompleteness.ofJPEG(bytes) == .complete
    }

    /// The error for a failed decode, worded for people: "truncated" when the
    /// data stops before the JPEG's end marker, "corrupt" otherwise.
    private static func failure(_ reason: String, stage: String, _ bytes: UnsafeBufferPointer<UInt8>) -> FoveaError {
        if ContainerCompleteness.ofJPEG(bytes) == .truncated || reason.contains("Premature end of JPEG file") {
            return FoveaError(.invalidImage, "truncated JPEG data (\(reason))")
        }
        return FoveaError(.invalidImage, "corrupt JPEG data in the \(stage) (\(reason))")
    }

    /// TurboJPEG's last message for `handle`, without its `tjFunction(): ` prefix.
    private static func errorText(_ handle: tjhandle?) -> String {
        guard let cString = tjGetErrorStr2(handle) else { return "unknown error" }
        var text = String(cString: cString)
        if let range = text.range(of: "(): ") {
            text = String(text[range.upperBound...])
        }
        return text.isEmpty ? "unknown error" : text
    }
}
