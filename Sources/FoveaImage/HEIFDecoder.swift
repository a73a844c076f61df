import Foundation
import CHEIF
import FoveaCore

/// Decodes HEIC/HEIF (HEVC, through libheif's libde265 plugin) and AVIF (AV1,
/// through dav1d or aom) with libheif.
///
/// The primary image is decoded (an image sequence or a burst gives its
/// primary image; an iPhone's grid of tiles is assembled by libheif), with
/// the container's `clap` crop, `irot` rotation and `imir` mirror applied by
/// libheif, once. The EXIF orientation inside a HEIF is **not** read: the
/// HEIF specification makes the container's transforms authoritative, and
/// iPhones write both (docs/formats.md). 10- and 12-bit images are decoded
/// at their depth and reach 8 bits only after colour matching, rounded once.
/// Alpha is composited over black (``AlphaCompositing``). The `colr` box
/// (an ICC profile, or nclx code points) is the colour profile.
enum HEIFDecoder {
    /// libheif's plugins are loaded by `heif_init`, once per process.
    private static let initialized: Bool = {
        heif_init(nil).code == heif_error_Ok
    }()

    static func decode(_ data: Data, limits: ImageDecodingLimits = .default) throws -> DecodedPicture {
        _ = initialized
        return try data.withUnsafeBytes { raw in
            guard let context = heif_context_alloc() else {
                throw FoveaError(.invalidImage, "cannot start the HEIF decoder (libheif)")
            }
            defer { heif_context_free(context) }
            // Refuses tiles, grids and images wider or taller than Fovea accepts while
            // the container is parsed, before libheif allocates anything for them.
            heif_context_set_maximum_image_size_limit(context, Int32(min(RGBImage.maxSideLength, limits.maxPixelCount)))
            try check(heif_context_read_from_memory_without_copy(context, raw.baseAddress, raw.count, nil), stage: "container")

            var handle: OpaquePointer?
            try check(heif_context_get_primary_image_handle(context, &handle), stage: "container")
            guard let handle else { throw FoveaError(.invalidImage, "corrupt HEIF data: no primary image") }
            defer { heif_image_handle_release(handle) }
            // The size after the container's transforms: rotation keeps the pixel count, a crop lowers it.
            try limits.check(width: Int(heif_image_handle_get_width(handle)), height: Int(heif_image_handle_get_height(handle)))
            let profile = try colorProfile(handle)

            let wide = heif_image_handle_get_luma_bits_per_pixel(handle) > 8
            let hasAlpha = heif_image_handle_has_alpha_channel(handle) != 0
            let chroma = wide ? (hasAlpha ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RRGGBB_LE)
                              : (hasAlpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB)
            var decoded: OpaquePointer?
            try check(heif_decode_image(handle, &decoded, heif_colorspace_RGB, chroma, nil), stage: "pixels")
            guard let decoded else { throw FoveaError(.invalidImage, "corrupt HEIF data: libheif returned no image") }
            defer { heif_image_release(decoded) }

            let width = Int(heif_image_get_width(decoded, heif_channel_interleaved))
            let height = Int(heif_image_get_height(decoded, heif_channel_interleaved))
            try limits.check(width: width, height: height)
            var stride: Int32 = 0
            guard let plane = heif_image_get_plane_readonly(decoded, heif_channel_interleaved, &stride) else {
                throw FoveaError(.invalidImage, "corrupt HEIF data: libheif returned no pixels")
            }
            let channels = hasAlpha ? 4 : 3
            // Premultiplied colour is already composited over black: the alpha is dropped.
            let composite = hasAlpha && heif_image_handle_is_premultiplied_alpha(handle) == 0
            let samples: DecodedPicture.Samples
            if wide {
                let bits = Int(heif_image_get_bits_per_pixel_range(decoded, heif_channel_interleaved))
                let maximum = UInt32((1 << min(max(bits, 9), 16)) - 1)
                var values = [UInt16](repeating: 0, count: width * height * channels)
                for y in 0..<height {
                    let row = UnsafeRawPointer(plane + y * Int(stride))
                    for k in 0..<(width * channels) {
                        let v = UInt32(UInt16(littleEndian: row.loadUnaligned(fromByteOffset: 2 * k, as: UInt16.self)))
                        // Scaled to the full 16-bit range, so 10-bit white is 65535.
                        values[y * width * channels + k] = UInt16((min(v, maximum) * 65535 + maximum / 2) / maximum)
                    }
                }
                samples = .rgb16(hasAlpha ? (composite ? AlphaCompositing.rgb(fromRGBA16: values) : dropAlpha(values)) : values)
            } else {
                var values = [UInt8](repeating: 0, count: width * height * channels)
                values.withUnsafeMutableBytes { out in
                    // An empty picture has no buffer to copy into (and no rows to copy).
                    guard let base = out.baseAddress else { return }
                    for y in 0..<height {
                        (base + y * width * channels).copyMemory(from: plane + y * Int(stride), byteCount: width * channels)
                    }
                }
                if hasAlpha {
                    samples = .rgb8(composite ? values.withUnsafeBufferPointer { AlphaCompositing.rgb(fromRGBA: $0, pixelCount: width * height) }
                                              : dropAlpha(values))
                } else {
                    samples = .rgb8(values)
                }
            }
            return DecodedPicture(width: width, height: height, samples: samples, profile: profile)
        }
    }

    /// The `colr` box: an ICC profile if there is one, else nclx, else `nil` (sRGB).
    private static func colorProfile(_ handle: OpaquePointer) throws -> ColorProfile? {
        let iccSize = heif_image_handle_get_raw_color_profile_size(handle)
        if iccSize > 0 {
            try ColorProfile.checkICCSize(iccSize)
            var icc = Data(count: iccSize)
            try icc.withUnsafeMutableBytes { try check(heif_image_handle_get_raw_color_profile(handle, $0.baseAddress), stage: "colour profile") }
            return .icc(icc)
        }
        var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
        let status = heif_image_handle_get_nclx_color_profile(handle, &nclx)
        // libheif may hand out the profile together with an error (an unknown
        // primaries code): it is ours to free either way.
        defer { if let nclx { heif_nclx_color_profile_free(nclx) } }
        guard status.code == heif_error_Ok, let n = nclx?.pointee else { return nil }
        let primaries = Chromaticities(whiteX: Double(n.color_primary_white_x), whiteY: Double(n.color_primary_white_y),
                                       redX: Double(n.color_primary_red_x), redY: Double(n.color_primary_red_y),
                                       greenX: Double(n.color_primary_green_x), greenY: Double(n.color_primary_green_y),
                                       blueX: Double(n.color_primary_blue_x), blueY: Double(n.color_primary_blue_y))
        return ColorProfile.nclx(primariesCode: Int(n.color_primaries.rawValue), transferCode: Int(n.transfer_characteristics.rawValue),
                                 primaries: primaries)
    }

    private static func dropAlpha<T>(_ rgba: [T]) -> [T] {
        var rgb: [T] = []
        rgb.reserveCapacity(rgba.count / 4 * 3)
        for p in 0..<(rgba.count / 4) { rgb += rgba[(4 * p)..<(4 * p + 3)] }
        return rgb
    }

    /// Throws a `FoveaError` for a libheif error, worded for people.
    private static func check(_ error: heif_error, stage: String) throws {
        guard error.code != heif_error_Ok else { return }
        let message = (error.message.map { String(cString: $0) } ?? "unknown error").trimmingCharacters(in: .whitespacesAndNewlines)
        let reason = "libheif: \(SafeText.escaped(message))"
        if error.subcode == heif_suberror_End_of_data {
            throw FoveaError(.invalidImage, "truncated HEIF data (\(reason))")
        }
        if error.subcode == heif_suberror_Security_limit_exceeded {
            throw FoveaError(.limitExceeded, "HEIF image larger than the limits (\(reason)); raise them with ImageDecodingLimits or --max-pixels")
        }
        if error.subcode == heif_suberror_Unsupported_codec {
            throw FoveaError(.invalidImage, "unsupported HEIF codec: this libheif has no decoder for it (HEVC needs libde265, AV1 dav1d or aom; \(reason))")
        }
        if error.code == heif_error_Unsupported_feature {
            // Such as libheif 1.15's "Can currently only mirror images with 8 bits per pixel".
            throw FoveaError(.invalidImage, "unsupported HEIF feature (\(reason))")
        }
        throw FoveaError(.invalidImage, "corrupt HEIF data in the \(stage) (\(reason))")
    }
}
