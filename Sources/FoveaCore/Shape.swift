/// Helpers for tensor shapes, which Fovea writes as plain `[Int]` (NCHW for images).
extension Array where Element == Int {
    /// The number of elements a tensor of this shape holds (1 for a scalar `[]`).
    public var elementCount: Int { reduce(1, *) }

    /// Steps this row-major position within `shape` to the next one (the last
    /// axis fastest); after the last position it wraps to all zeros.
    public mutating func advanceRowMajor(within shape: [Int]) {
        var axis = shape.count - 1
        while axis >= 0 {
            self[axis] += 1
            if self[axis] < shape[axis] { return }
            self[axis] = 0
            axis -= 1
        }
    }

    /// Row-major (C order) strides, in elements.
    public var rowMajorStrides: [Int] {
        var strides = [Int](repeating: 1, count: count)
        var running = 1
        for axis in stride(from: count - 1, through: 0, by: -1) {
            strides[axis] = running
            running *= self[axis]
        }
        return strides
    }

    /// Element strides of a tensor of this shape read as `output` (0 on
    /// broadcast axes). The shape must broadcast to `output` (see ``broadcastShape(_:_:)``).
    public func broadcastStrides(to output: [Int]) -> [Int] {
        let own = rowMajorStrides
        let lead = output.count - count
        return output.indices.map { axis in
            axis < lead || self[axis - lead] == 1 ? 0 : own[axis - lead]
        }
    }

    /// `2×3×224×224`, `scalar` for `[]`.
    public var shapeDescription: String {
        isEmpty ? "scalar" : map(String.init).joined(separator: "×")
    }
}

/// Resolves a possibly negative axis against `rank`: ONNX allows `-rank ..< rank`,
/// or `-rank ... rank` with `allowingEnd` (Flatten's axis), a negative axis
/// counting from the end (`-1` is `rank - 1`).
public func normalizedAxis(_ axis: Int, rank: Int, allowingEnd: Bool = false) throws -> Int {
    let resolved = axis < 0 ? axis + rank : axis
    guard resolved >= 0, resolved < (allowingEnd ? rank + 1 : rank) else {
        throw FoveaError(.invalidAttribute, "axis \(axis) is out of range for rank \(rank)")
    }
    return resolved
}

/// The numpy-style broadcast of two shapes, or a `.shapeMismatch` error.
public func broadcastShape(_ a: [Int], _ b: [Int]) throws -> [Int] {
    let rank = Swift.max(a.count, b.count)
    var result = [Int](repeating: 1, count: rank)
    for i in 0..<rank {
        let da = i < rank - a.count ? 1 : a[i - (rank - a.count)]
        let db = i < rank - b.count ? 1 : b[i - (rank - b.count)]
        guard da == db || da == 1 || db == 1 else {
            throw FoveaError(.shapeMismatch, "shapes \(a.shapeDescription) and \(b.shapeDescription) cannot be broadcast")
        }
        result[i] = da == 1 ? db : da
    }
    return result
}
