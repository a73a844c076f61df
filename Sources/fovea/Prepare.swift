import ArgumentParser
@_spi(Internals) import Fovea
import Foundation

struct Prepare: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the picture a model would see: after orientation, colour matching, crop and scale, before normalization.")

    @Argument(help: "The image file (JPEG, PNG, HEIC, AVIF, WebP, PPM).")
    var image: String

    @Option(help: "The model's input size, WIDTHxHEIGHT, such as 224x224.")
    var size: String

    @Option(help: "center (scale the shorter side, crop the centre), fill (stretch) or fit (keep aspect, pad with black).")
    var crop: ImageCropAndScaleOption = .centerCrop

    @Option(help: "For --crop center: the central fraction kept, such as 0.875 (224 of 256).")
    var cropFraction: Double = 1

    @Option(help: "auto (EXIF), up, down, left, right, up-mirrored, down-mirrored, left-mirrored or right-mirrored.")
    var orientation: OrientationOption = .auto

    @Option(help: "Where to write the picture (.png or .ppm).")
    var output: String

    @OptionGroup var pixels: PixelLimitOption

    func validate() throws {
        _ = try parsedSize()
        guard cropFraction > 0, cropFraction <= 1 else { throw ValidationError("--crop-fraction must be in (0, 1]") }
    }

    func run() throws {
        let (width, height) = try parsedSize()
        let handler = try ImageRequestHandler(contentsOfFile: image, orientation: orientation.orientation, limits: pixels.limits,
                                              colorMatching: pixels.colorMatching)
        let prepared = try crop.apply(to: handler.image, width: width, height: height, cropFraction: cropFraction)
        try writeImage(prepared, to: output)
    }

    private func parsedSize() throws -> (Int, Int) {
        let parts = size.lowercased().split(separator: "x").map { Int($0) }
        guard parts.count == 2, let width = parts[0], let height = parts[1], width > 0, height > 0 else {
            throw ValidationError("--size takes WIDTHxHEIGHT with positive numbers, such as 224x224; got '\(size.terminalSafe)'")
        }
        guard width <= RGBImage.maxSideLength, height <= RGBImage.maxSideLength,
              width * height <= pixels.limits.maxPixelCount else {
            throw ValidationError("--size \(width)x\(height) is larger than the limit of \(pixels.limits.maxPixelCount) pixels (--max-pixels)")
        }
        return (width, height)
    }
}
