import FoveaCore

/// How a stored image must be turned to be seen upright: the 8 values of the
/// EXIF / TIFF `Orientation` tag, named as Core Graphics' `CGImagePropertyOrientation`
/// (and Vision) name them.
///
/// The raw value is the EXIF value. `.right` (6) is what a phone writes for a
/// portrait photo: the stored pixels are rotated, and turning them 90° clockwise
/// shows the picture upright.
public enum ImageOrientation: UInt32, Sendable, Equatable, CaseIterable, Codable {
    /// 1: stored upright.
    case up = 1
    /// 2: mirrored left to right.
    case upMirrored = 2
    /// 3: rotated 180°.
    case down = 3
    /// 4: mirrored top to bottom.
    case downMirrored = 4
    /// 5: mirrored across the main diagonal (transpose).
    case leftMirrored = 5
    /// 6: turn 90° clockwise to display.
    case right = 6
    /// 7: mirrored across the anti-diagonal (transverse).
    case rightMirrored = 7
    /// 8: turn 90° counter-clockwise to display.
    case left = 8

    /// The command-line spelling: `up`, `down`, `left`, `right`, `up-mirrored`, ….
    public var name: String {
        switch self {
        case .up: return "up"
        case .upMirrored: return "up-mirrored"
        case .down: return "down"
        case .downMirrored: return "down-mirrored"
        case .leftMirrored: return "left-mirrored"
        case .right: return "right"
        case .rightMirrored: return "right-mirrored"
        case .left: return "left"
        }
    }

    /// The orientation named `name` (see ``name``), or `nil`.
    public init?(name: String) {
        guard let match = ImageOrientation.allCases.first(where: { $0.name == name }) else { return nil }
        self = match
    }

    /// Whether displaying swaps width and height (the 90° cases).
    public var swapsWidthAndHeight: Bool { rawValue >= 5 }

    /// The orientation that undoes this one: storing `image.oriented(o.inverse)`
    /// with tag `o` displays `image`.
    public var inverse: ImageOrientation {
        switch self {
        case .right: return .left
        case .left: return .right
        default: return self  // flips, 180° and the two diagonal mirrors undo themselves
        }
    }
}

extension RGBImage {
    /// The image as it is meant to be seen, for pixels stored with `orientation`
    /// (the transform `ImageOps.exif_transpose` applies in Pillow).
    public func oriented(_ orientation: ImageOrientation) -> RGBImage {
        if orientation == .up { return self }
        let outWidth = orientation.swapsWidthAndHeight ? height : width
        let outHeight = orientation.swapsWidthAndHeight ? width : height
        let (w, h) = (width, height)
        // Where output pixel (x, y) comes from in the stored image.
        let source: (Int, Int) -> (Int, Int)
        switch orientation {
        case .up: source = { x, y in (x, y) }
        case .upMirrored: source = { x, y in (w - 1 - x, y) }
        case .down: source = { x, y in (w - 1 - x, h - 1 - y) }
        case .downMirrored: source = { x, y in (x, h - 1 - y) }
        case .leftMirrored: source = { x, y in (y, x) }
        case .right: source = { x, y in (y, h - 1 - x) }
        case .rightMirrored: source = { x, y in (w - 1 - y, h - 1 - x) }
        case .left: source = { x, y in (w - 1 - y, x) }
        }
        var output = [UInt8](repeating: 0, count: pixels.count)
        pixels.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                var o = 0
                for y in 0..<outHeight {
                    for x in 0..<outWidth {
                        let (sx, sy) = source(x, y)
                        let i = (sy * w + sx) * RGBImage.channelCount
                        out[o] = input[i]
                        out[o + 1] = input[i + 1]
                        out[o + 2] = input[i + 2]
                        o += RGBImage.channelCount
                    }
                }
            }
        }
        return RGBImage(uncheckedWidth: outWidth, height: outHeight, pixels: output)
    }
}
