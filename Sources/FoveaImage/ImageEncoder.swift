import Foundation
import CTurboJPEG
import CPNG
import FoveaCore

/// Encodes ``RGBImage``s as PNG (lossless, libpng), JPEG (libjpeg-turbo) or PPM.
public enum ImageEncoder {
    /// The image as an 8-bit RGB PNG.
    public static func png(_ image: RGBImage) throws -> Data {
        var png = png_image()
        png.version = UInt32(PNG_IMAGE_VERSION)
        png.width = UInt32(image.width)
        png.height = UInt32(image.height)
        png.format = UInt32(PNG_FORMAT_FLAG_COLOR)
        defer { png_image_free(&png) }
        let stride = Int32(image.width * RGBImage.channelCount)
        var size = 0
        // First call measures, second writes.
        let measured = image.pixels.withUnsafeBytes { pixels in
            png_image_write_to_memory(&png, nil, &size, 0, pixels.baseAddress, stride, nil)
        }
        guard measured != 0, size > 0 else { throw FoveaError(.invalidImage, "cannot encode PNG (libpng: \(PNGDecoder.message(of: png)))") }
        var output = [UInt8](repeating: 0, count: size)
        let written = output.withUnsafeMutableBytes { buffer in
            image.pixels.withUnsafeBytes { pixels in
                png_image_write_to_memory(&png, buffer.baseAddress, &size, 0, pixels.baseAddress, stride, nil)
            }
        }
        guard written != 0 else { throw FoveaError(.invalidImage, "cannot encode PNG (libpng: \(PNGDecoder.message(of: png)))") }
        return Data(output.prefix(size))
    }

    /// The image as a baseline JPEG (4:4:4 chroma) of `quality` 1...100.
    public static func jpeg(_ image: RGBImage, quality: Int = 95) throws -> Data {
        guard (1...100).contains(quality) else {
            throw FoveaError(.invalidArgument, "JPEG quality \(quality) must be in 1...100")
        }
        guard let handle = tjInitCompress() else { throw FoveaError(.invalidImage, "cannot start the JPEG encoder") }
        defer { tjDestroy(handle) }
        var buffer: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        let status = image.pixels.withUnsafeBufferPointer { pixels in
            tjCompress2(handle, pixels.baseAddress, Int32(image.width), 0, Int32(image.height), Int32(TJPF_RGB.rawValue),
                        &buffer, &size, Int32(TJSAMP_444.rawValue), Int32(quality), TJFLAG_ACCURATEDCT)
        }
        defer { if let buffer { tjFree(buffer) } }
        guard status == 0, let buffer else {
            throw FoveaError(.invalidImage, "cannot encode JPEG (libjpeg-turbo: \(String(cString: tjGetErrorStr2(handle))))")
        }
        return Data(bytes: buffer, count: Int(size))
    }

    /// Encodes by file extension: `.png`, `.ppm`, `.jpg`/`.jpeg`.
    public static func encode(_ image: RGBImage, forPath path: String) throws -> Data {
        switch (path as NSString).pathExtension.lowercased() {
        case "png": return try png(image)
        case "ppm": return image.ppmData()
        case "jpg", "jpeg": return try jpeg(image)
        default:
            throw FoveaError(.invalidArgument, "cannot write '\(path)': use a .png, .ppm or .jpg file name")
        }
    }
}
