import FoveaCore

extension RGBImage {
    /// The pixel rectangle of a normalized region (Vision's `regionOfInterest`):
    /// `x`, `y`, `width`, `height` are fractions of the image's width and
    /// height, with the origin at the **lower left** and y going up. Edges are
    /// rounded to the nearest pixel boundary; the result is at least 1×1.
    ///
    /// Throws `.invalidArgument` for a region that is empty, not finite, or
    /// not inside the unit square (a millionth of slack for rounding).
    public func pixelRect(ofNormalizedRegion x: Double, _ y: Double, _ width: Double, _ height: Double) throws
        -> (x: Int, y: Int, width: Int, height: Int) {
        let slack = 1e-6
        guard [x, y, width, height].allSatisfy(\.isFinite), width > 0, height > 0,
              x >= -slack, y >= -slack, x + width <= 1 + slack, y + height <= 1 + slack else {
            throw FoveaError(.invalidArgument, "region of interest (x \(x), y \(y), width \(width), height \(height)) must be a non-empty rectangle inside the unit square (normalized coordinates, origin at the lower left)")
        }
        func edge(_ fraction: Double, _ size: Int) -> Int { Swift.min(size, Swift.max(0, Int((fraction * Double(size)).rounded()))) }
        let left = edge(x, self.width), right = edge(x + width, self.width)
        // Flip y: the region's top edge is at 1 - (y + height) from the image's top.
        let top = edge(1 - (y + height), self.height), bottom = edge(1 - y, self.height)
        let columns = Swift.max(1, right - left), rows = Swift.max(1, bottom - top)
        return (Swift.min(left, self.width - columns), Swift.min(top, self.height - rows), columns, rows)
    }

    /// The part of the image inside a normalized region (see
    /// ``pixelRect(ofNormalizedRegion:_:_:_:)``); the whole image for `(0, 0, 1, 1)`.
    public func cropped(toNormalizedRegion x: Double, _ y: Double, _ width: Double, _ height: Double) throws -> RGBImage {
        let rect = try pixelRect(ofNormalizedRegion: x, y, width, height)
        return try cropped(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
    }
}
