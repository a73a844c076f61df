import Foundation
import FoveaCore
import FoveaImage

/// Reads a YUV4MPEG2 (`.y4m`) video, frame by frame: the uncompressed format
/// `ffmpeg -i clip.mp4 -f yuv4mpegpipe -` writes, so any video reaches Fovea
/// through a pipe.
///
/// The stream is a header line (`YUV4MPEG2 W640 H480 F30:1 Ip A1:1 C420jpeg`),
/// then frames, each a `FRAME` line and the planes Y, Cb, Cr. Supported colour
/// spaces: `420jpeg`, `420paldv`, `420mpeg2`, `420` (the default), `422`, `444`
/// and `mono`, 8 bits. Frames are converted to RGB with BT.601's studio-range
/// matrix (what ffmpeg writes for ordinary video), chroma repeated over the
/// pixels it covers.
public final class Y4MReader {
    /// Frame size in pixels.
    public let width: Int, height: Int
    /// Frames per second from the header's `F` field, if any.
    public let framesPerSecond: Double?
    /// The colour space from the `C` field (`420jpeg` when absent).
    public let colourSpace: String
    /// Frames read so far.
    public private(set) var framesRead = 0

    private let stream: ByteStream
    private let chromaWidth: Int, chromaHeight: Int
    private let source: String
    private var planes: [UInt8]

    /// Reads standard input (`-`) or the file at `path`; the header is read now.
    ///
    /// - Throws: `.io` if the file cannot be opened, `.invalidImage` for a
    ///   header that is not YUV4MPEG2 or an unsupported colour space,
    ///   `.limitExceeded` for a frame size above `limits`.
    public convenience init(path: String, limits: ImageDecodingLimits = .default) throws {
        if path == "-" {
            try self.init(descriptor: FileHandle.standardInput.fileDescriptor, name: "standard input", limits: limits)
            return
        }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw FoveaError(.io, "cannot open: \(String(cString: strerror(errno)))", location: .init(file: path))
        }
        do {
            try self.init(descriptor: descriptor, name: path, limits: limits)
        } catch {
            close(descriptor)
            throw error
        }
        ownedDescriptor = descriptor
    }

    private var ownedDescriptor: Int32?

    deinit {
        if let ownedDescriptor { close(ownedDescriptor) }
    }

    /// Reads from an open file descriptor (left open); `name` is for errors.
    public init(descriptor: Int32, name: String, limits: ImageDecodingLimits = .default) throws {
        stream = ByteStream(descriptor: descriptor, name: name)
        source = name
        let location = FoveaError.Location(file: name)
        guard let header = try stream.line(limit: 4096) else {
            throw FoveaError(.invalidImage, "the stream is empty; expected a YUV4MPEG2 header", location: location)
        }
        let fields = String(decoding: header, as: UTF8.self).split(separator: " ")
        guard fields.first == "YUV4MPEG2" else {
            throw FoveaError(.invalidImage, "not a YUV4MPEG2 stream: it starts with '\(SafeText.escaped(String(decoding: header.prefix(16), as: UTF8.self)))'", location: location)
        }
        var width: Int?, height: Int?, rate: Double?, space = "420jpeg"
        for field in fields.dropFirst() {
            let value = String(field.dropFirst())
            switch field.first {
            case "W": width = Int(value)
            case "H": height = Int(value)
            case "C": space = value
            case "F":
                let parts = value.split(separator: ":").compactMap { Double($0) }
                if parts.count == 2, parts[1] > 0 { rate = parts[0] / parts[1] }
            default: break  // interlacing, aspect, comments (X...): not needed
            }
        }
        guard let width, let height else {
            throw FoveaError(.invalidImage, "the YUV4MPEG2 header has no W (width) or H (height) field", location: location)
        }
        try FoveaError.at(location) { try limits.check(width: width, height: height) }
        switch space {
        case "420jpeg", "420paldv", "420mpeg2", "420": (chromaWidth, chromaHeight) = ((width + 1) / 2, (height + 1) / 2)
        case "422": (chromaWidth, chromaHeight) = ((width + 1) / 2, height)
        case "444": (chromaWidth, chromaHeight) = (width, height)
        case "mono": (chromaWidth, chromaHeight) = (0, 0)
        default:
            throw FoveaError(.unsupported, "YUV4MPEG2 colour space '\(SafeText.escaped(space))' is not supported; expected 420jpeg, 420paldv, 420mpeg2, 420, 422, 444 or mono (8 bits); ask ffmpeg for -pix_fmt yuv420p", location: location)
        }
        self.width = width
        self.height = height
        self.framesPerSecond = rate
        self.colourSpace = space
        planes = [UInt8](repeating: 0, count: width * height + 2 * chromaWidth * chromaHeight)
    }

    /// The next frame as RGB, or `nil` at the end of the stream.
    ///
    /// - Throws: `.invalidImage` for a frame that does not start with `FRAME`
    ///   or is cut short, `.io` for a read error.
    public func nextFrame() throws -> RGBImage? {
        let location = FoveaError.Location(file: source)
        guard let marker = try stream.line(limit: 4096) else { return nil }
        guard marker.starts(with: Array("FRAME".utf8)) else {
            throw FoveaError(.invalidImage, "frame \(framesRead + 1) does not start with FRAME", location: location)
        }
        guard try stream.readExactly(planes.count, into: &planes, at: 0) else {
            throw FoveaError(.invalidImage, "the stream ends inside frame \(framesRead + 1) (\(planes.count) bytes expected)", location: location)
        }
        framesRead += 1
        return try RGBImage(width: width, height: height, pixels: rgbPixels())
    }

    /// BT.601 studio range (Y in 16...235, Cb and Cr in 16...240 around 128),
    /// in the usual 8-bit fixed-point form: R = (298 (Y-16) + 409 (Cr-128) + 128) >> 8, and so on.
    private func rgbPixels() -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        let lumaCount = width * height, chromaCount = chromaWidth * chromaHeight
        let stepX = chromaWidth == 0 ? 1 : (width + chromaWidth - 1) / chromaWidth
        let stepY = chromaHeight == 0 ? 1 : (height + chromaHeight - 1) / chromaHeight
        planes.withUnsafeBufferPointer { yuv in
            rgb.withUnsafeMutableBufferPointer { out in
                for y in 0..<height {
                    let chromaRow = lumaCount + (y / stepY) * chromaWidth
                    var o = y * width * 3
                    for x in 0..<width {
                        let c = 298 * (Int32(yuv[y * width + x]) - 16) + 128
                        var (r, g, b) = (c, c, c)
                        if chromaCount > 0 {
                            let d = Int32(yuv[chromaRow + x / stepX]) - 128, e = Int32(yuv[chromaRow + chromaCount + x / stepX]) - 128
                            r += 409 * e
                            g -= 100 * d + 208 * e
                            b += 516 * d
                        }
                        out[o] = Y4MReader.byte(r >> 8)
                        out[o + 1] = Y4MReader.byte(g >> 8)
                        out[o + 2] = Y4MReader.byte(b >> 8)
                        o += 3
                    }
                }
            }
        }
        return rgb
    }

    private static func byte(_ value: Int32) -> UInt8 {
        UInt8(clamping: value)
    }
}
