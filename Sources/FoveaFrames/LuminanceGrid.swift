import FoveaImage

/// A frame's brightness on a coarse grid: each cell is the mean luma (BT.601
/// weights, 0...255) of a `factor × factor` block of source pixels. Registration
/// works on this: colour adds little to a translation estimate, and a smaller
/// grid makes the FFTs cheap.
public struct LuminanceGrid: Sendable, Equatable {
    /// Cells across and down.
    public let width: Int
    /// Cells down.
    public let height: Int
    /// Source pixels per cell side.
    public let factor: Int
    /// `width × height` mean lumas, row-major, top row first.
    public let values: [Float]

    /// The grid of `image` with `factor × factor` blocks (at least one cell).
    public init(image: RGBImage, factor requested: Int) {
        let factor = Swift.max(1, Swift.min(requested, image.width, image.height))
        let width = image.width / factor, height = image.height / factor
        var sums = [Float](repeating: 0, count: width * height)
        image.pixels.withUnsafeBufferPointer { pixels in
            sums.withUnsafeMutableBufferPointer { cells in
                for y in 0..<(height * factor) {
                    let row = y * image.width * 3
                    let cellRow = (y / factor) * width
                    for cellX in 0..<width {
                        var sum: Float = 0
                        var i = row + cellX * factor * 3
                        for _ in 0..<factor {
                            sum += 0.299 * Float(pixels[i]) + 0.587 * Float(pixels[i + 1]) + 0.114 * Float(pixels[i + 2])
                            i += 3
                        }
                        cells[cellRow + cellX] += sum
                    }
                }
            }
        }
        let scale = 1 / Float(factor * factor)
        self.width = width
        self.height = height
        self.factor = factor
        self.values = sums.map { $0 * scale }
    }
}
