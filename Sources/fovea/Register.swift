import ArgumentParser
@_spi(Internals) import Fovea
import Foundation
import FoveaFrames

struct Register: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure the translation between two images of one size (phase correlation).",
        discussion: """
        Prints `tx ty confidence`: the shift in pixels of IMAGE_A that moves IMAGE_B \
        onto IMAGE_A, with Vision's sign convention (VNTranslationalImageRegistrationRequest, \
        IMAGE_A the handler's reference image, IMAGE_B the targeted image): x to the \
        right, y UP (origin at the lower left). Content at column c, row r of IMAGE_B \
        is at column c + tx, row r - ty of IMAGE_A. Confidence is 0...1; near 0 the \
        images share no measurable texture and the shift means nothing.
        """
    )

    @Option(help: "auto (EXIF), up, down, left, right, up-mirrored, down-mirrored, left-mirrored or right-mirrored; for both images.")
    var orientation: OrientationOption = .auto

    @Option(help: "The longer side of the grid the images are analysed on (smaller is faster).")
    var gridSize = 320

    @Option(help: "Measure: register the pair this many times and print the median time per pair on standard error (decoding excluded).")
    var runs = 1

    @OptionGroup var pixels: PixelLimitOption

    @Flag(help: "Print JSON: {\"tx\":…,\"ty\":…,\"confidence\":…}.")
    var json = false

    @Argument(help: "The reference image.")
    var imageA: String

    @Argument(help: "The image to align onto IMAGE_A.")
    var imageB: String

    func validate() throws {
        guard gridSize >= 8 else { throw ValidationError("--grid-size must be at least 8") }
        guard (1...100_000).contains(runs) else { throw ValidationError("--runs must be in 1...100000") }
    }

    func run() throws {
        let reference = try ImageRequestHandler(contentsOfFile: imageA, orientation: orientation.orientation, limits: pixels.limits)
        let targeted = try ImageRequestHandler(contentsOfFile: imageB, orientation: orientation.orientation, limits: pixels.limits)
        let request = try TranslationalImageRegistrationRequest(targetedImage: targeted)
        request.analysisMaxSide = gridSize
        let alignment = try request.observation(reference: reference.image)
        if runs > 1 {
            // Each run is a fresh pair: FFT plans, both spectra, the correlation.
            var milliseconds: [Double] = []
            for _ in 0..<runs {
                let start = DispatchTime.now().uptimeNanoseconds
                _ = try request.observation(reference: reference.image)
                milliseconds.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
            milliseconds.sort()
            let image = try reference.image
            FileHandle.standardError.write(Data(String(format: "registration of a %d×%d pair: median %.3f ms, min %.3f ms over %d runs\n",
                                                       image.width, image.height, milliseconds[runs / 2], milliseconds[0], runs).utf8))
        }
        if json {
            try printJSON(alignment, [.sortedKeys])
        } else {
            print(String(format: "%.3f %.3f %.3f", alignment.tx, alignment.ty, alignment.confidence))
        }
    }
}
