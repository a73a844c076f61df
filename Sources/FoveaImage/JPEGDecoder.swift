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
///
/// ``decode(_:limits:reducedBy:)`` can decode at 1/2, 1/4 or 1/8 of the stored
/// size: libjpeg-turbo then inverse-transforms only the low 4×4, 2×2 or 1×1
/// coefficients of each 8×8 block, which is both a good low-pass filter and
/// a fraction of the work (see ``EncodedImage``).
enum JPEGDecoder {
    /// The reductions libjpeg-turbo's DCT scaling offers below full size, smallest picture first.
    static let reductions = [8, 4, 2]

    /// A side of `size` pixels decoded at 1/`denominator`: rounded up, as libjpeg does.
    static func reduced(_ size: Int, by denominator: Int) -> Int {
        (size + denominator - 1) / denominator
    }

    /// The stored size from the header, checked against `limits`, without decoding pixels.
    static func size(of data: Data, limits: ImageDecodingLimits = .default) throws -> (width: Int, height: Int) {
        try withHeader(data, limits: limits) { _, _, _, width, height, _ in (width, height) }
    }

    /// Decodes the JPEG, in full or at 1/`denominator` of its size (2, 4 or 8,
    /// scaled in the DCT; each side rounded up). The output buffer is the only
    /// one Fovea allocates, so memory follows the decoded size.
    static func decode(_ data: Data, limits: ImageDecodingLimits = .default, reducedBy denominator: Int = 1) throws -> RGBImage {
        try withHeader(data, limits: limits) { handle, jpeg, bytes, storedWidth, storedHeight, colorspace in
            let denominator = ([1] + reductions).contains(denominator) ? denominator : 1
            let w = reduced(storedWidth, by: denominator), h = reduced(storedHeight, by: denominator)
            let isCMYK = colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
            let pixelFormat = isCMYK ? TJPF_CMYK : TJPF_RGB
            let channels = isCMYK ? 4 : 3
            // LIMITSCANS stops progressive files with thousands of scans (a known DoS).
            let flags = TJFLAG_ACCURATEDCT | TJFLAG_LIMITSCANS
            var decoded = [UInt8](repeating: 0, count: w * h * channels)
            // Asking for w × h makes TurboJPEG pick the scaling factor 1/denominator.
            let status = decoded.withUnsafeMutableBufferPointer { buffer in
                tjDecompress2(handle, jpeg, UInt(bytes.count), buffer.baseAddress, Int32(w), 0, Int32(h), Int32(pixelFormat.rawValue), flags)
            }
            if status != 0, !isHarmlessWarning(handle, bytes) {
                throw failure("libjpeg-turbo: \(errorText(handle))", stage: "pixels", bytes)
            }
            let pixels = isCMYK ? rgbFromAdobeCMYK(decoded) : decoded
            return RGBImage(uncheckedWidth: w, height: h, pixels: pixels)
        }
    }

    /// Starts a decompressor, reads and checks the header, and calls `body`
    /// with the handle, the bytes, the stored size and the colour space.
    private static func withHeader<T>(_ data: Data, limits: ImageDecodingLimits,
                                      _ body: (tjhandle, UnsafePointer<UInt8>, UnsafeBufferPointer<UInt8>, Int, Int, Int32) throws -> T) throws -> T {
        guard let handle = tjInitDecompress() else {
            throw FoveaError(.invalidImage, "cannot start the JPEG decoder (libjpeg-turbo: \(errorText(nil)))")
        }
        defer { tjDestroy(handle) }

        return try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws -> T in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard let jpeg = bytes.baseAddress else {
                throw FoveaError(.invalidImage, "image is empty (0 bytes)")
            }
            var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
            if tjDecompressHeader3(handle, jpeg, UInt(raw.count), &width, &height, &subsampling, &colorspace) != 0,
               !isHarmlessWarning(handle, bytes) {
                throw failure("libjpeg-turbo: \(errorText(handle))", stage: "header", bytes)
            }
            // libjpeg-turbo 2.1 accepts a stream that ends before its frame header and reports 0×0.
            guard width > 0, height > 0 else {
                throw failure("no frame header (SOF) before the end of the data", stage: "header", bytes)
            }
            try limits.check(width: Int(width), height: Int(height))
            return try body(handle, jpeg, bytes, Int(width), Int(height), colorspace)
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
