import Foundation
import FoveaCore
import FoveaFrames
@_spi(Internals) @testable import Fovea

/// Frames made from the shared photos: windows moved by known amounts, with
/// noise and brightness changes, and YUV4MPEG2 files written from them.
enum FrameTestSupport {
    /// The `width × height` window of `source` whose top-left corner is at
    /// (`x`, `y`), sampled bilinearly (so fractions of a pixel move it), plus
    /// `brightness` levels and Gaussian noise of `noise` levels (seeded).
    static func window(of source: RGBImage, x: Double, y: Double, width: Int, height: Int,
                       brightness: Double = 0, noise: Double = 0, seed: UInt64 = 1) throws -> RGBImage {
        var generator = SeededGenerator(seed: seed)
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for row in 0..<height {
            let sy = y + Double(row), y0 = Int(sy.rounded(.down)), fy = sy - Double(y0)
            for column in 0..<width {
                let sx = x + Double(column), x0 = Int(sx.rounded(.down)), fx = sx - Double(x0)
                for channel in 0..<3 {
                    func at(_ px: Int, _ py: Int) -> Double {
                        Double(source.pixels[(py * source.width + px) * 3 + channel])
                    }
                    var value = (1 - fy) * ((1 - fx) * at(x0, y0) + fx * at(x0 + 1, y0)) + fy * ((1 - fx) * at(x0, y0 + 1) + fx * at(x0 + 1, y0 + 1))
                    value += brightness
                    if noise > 0 {
                        // Box-Muller.
                        let u1 = Double.random(in: Double.ulpOfOne..<1, using: &generator), u2 = Double.random(in: 0..<1, using: &generator)
                        value += noise * (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
                    }
                    pixels[(row * width + column) * 3 + channel] = UInt8(min(255, max(0, value.rounded())))
                }
            }
        }
        return try RGBImage(width: width, height: height, pixels: pixels)
    }

    /// The photo, decoded (and upright).
    static func photo(_ name: String) throws -> RGBImage {
        try ImageRequestHandler(contentsOfFile: TestData.photo(name)).image
    }

    /// A YUV4MPEG2 stream of `frames` (4:2:0, BT.601 studio range, as ffmpeg writes).
    static func y4m(_ frames: [RGBImage], colourSpace: String = "420jpeg") -> Data {
        let width = frames.first?.width ?? 0, height = frames.first?.height ?? 0
        var data = Data("YUV4MPEG2 W\(width) H\(height) F30:1 Ip A1:1 C\(colourSpace) XYSCSS=420JPEG\n".utf8)
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        for frame in frames {
            data.append(contentsOf: Array("FRAME\n".utf8))
            var luma = [UInt8](repeating: 0, count: width * height)
            var cb = [UInt8](repeating: 0, count: chromaWidth * chromaHeight), cr = cb
            func rgb(_ x: Int, _ y: Int) -> (Double, Double, Double) {
                let i = (min(y, height - 1) * width + min(x, width - 1)) * 3
                return (Double(frame.pixels[i]), Double(frame.pixels[i + 1]), Double(frame.pixels[i + 2]))
            }
            for y in 0..<height {
                for x in 0..<width {
                    let (r, g, b) = rgb(x, y)
                    luma[y * width + x] = UInt8(min(255, max(0, (16 + 0.257 * r + 0.504 * g + 0.098 * b).rounded())))
                }
            }
            for y in 0..<chromaHeight {
                for x in 0..<chromaWidth {
                    let (r, g, b) = rgb(2 * x, 2 * y)
                    cb[y * chromaWidth + x] = UInt8(min(255, max(0, (128 - 0.148 * r - 0.291 * g + 0.439 * b).rounded())))
                    cr[y * chromaWidth + x] = UInt8(min(255, max(0, (128 + 0.439 * r - 0.368 * g - 0.071 * b).rounded())))
                }
            }
            data.append(contentsOf: luma + cb + cr)
        }
        return data
    }
}
