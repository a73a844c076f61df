/// Reflect and edge padding (``Op/borderPad(pads:mode:)``).
enum ReferenceBorderPadding {
    /// Shape inference has checked the pads against the input's shape.
    static func run(_ args: ReferenceInputs, pads: [Int], mode: BorderPadMode, outputShape: [Int]) throws -> Tensor {
        let x = try args.tensor(0)
        let rank = x.rank
        let inputStrides = x.shape.rowMajorStrides
        // For each axis, the input coordinate that each output coordinate reads.
        let sources: [[Int]] = (0..<rank).map { axis in
            (0..<outputShape[axis]).map { source($0 - pads[axis], size: x.shape[axis], mode: mode) }
        }
        let count = outputShape.elementCount
        var offsets = [Int](repeating: 0, count: count)
        var index = [Int](repeating: 0, count: rank)
        for flat in 0..<count {
            var offset = 0
            for axis in 0..<rank { offset += sources[axis][index[axis]] * inputStrides[axis] }
            offsets[flat] = offset
            index.advanceRowMajor(within: outputShape)
        }
        let storage: Tensor.Storage
        switch x.storage {
        case .float32(let v): storage = .float32(offsets.map { v[$0] })
        case .int64(let v): storage = .int64(offsets.map { v[$0] })
        case .bool(let v): storage = .bool(offsets.map { v[$0] })
        case .uint8(let v): storage = .uint8(offsets.map { v[$0] })
        case .int8(let v): storage = .int8(offsets.map { v[$0] })
        case .int32(let v): storage = .int32(offsets.map { v[$0] })
        }
        return Tensor(uncheckedShape: outputShape, storage: storage)
    }

    /// The input coordinate for coordinate `i` (which may lie outside `0..<size`).
    static func source(_ i: Int, size: Int, mode: BorderPadMode) -> Int {
        if i >= 0 && i < size { return i }
        switch mode {
        case .edge:
            return i < 0 ? 0 : size - 1
        case .reflect:
            // Shape inference limits pads to size - 1, so one reflection suffices.
            return i < 0 ? -i : 2 * (size - 1) - i
        }
    }
}
