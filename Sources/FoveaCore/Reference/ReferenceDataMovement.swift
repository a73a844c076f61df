/// Slice, Split, Gather, Expand, Tile, DepthToSpace and SpaceToDepth for
/// every element type: each output element copies one input element, whose
/// index is worked out first (``SourceIndices``).
enum ReferenceDataMovement {
    static func slice(_ args: ReferenceInputs, starts: [Int], ends: [Int], axes: [Int]?, steps: [Int]?) throws -> Tensor {
        let x = try args.tensor(0)
        let ranges = try Op.sliceRanges(x.shape, starts: starts, ends: ends, axes: axes, steps: steps)
        return x.picking(SourceIndices(inputShape: x.shape, coordinates: ranges), shape: ranges.map(\.count))
    }

    static func split(_ args: ReferenceInputs, axis: Int, sizes: [Int]?, outputCount: Int) throws -> [Tensor] {
        let x = try args.tensor(0)
        let resolved = try normalizedAxis(axis, rank: x.rank)
        var start = 0
        return try Op.splitSizes(x.shape, axis: axis, sizes: sizes, outputCount: outputCount).map { size in
            var ranges = x.shape.map { Array(0..<$0) }
            ranges[resolved] = Array(start..<(start + size))
            start += size
            return x.picking(SourceIndices(inputShape: x.shape, coordinates: ranges), shape: ranges.map(\.count))
        }
    }

    /// Numpy broadcasting of the input to `outputShape`.
    static func expand(_ args: ReferenceInputs, outputShape: [Int]) throws -> Tensor {
        let x = try args.tensor(0)
        let lead = outputShape.count - x.rank
        // Leading new axes, and axes of size 1, read index 0 of the input.
        let coordinates = outputShape.indices.map { axis in
            axis < lead || x.shape[axis - lead] == 1 ? [Int](repeating: 0, count: outputShape[axis]) : Array(0..<outputShape[axis])
        }
        let padded = [Int](repeating: 1, count: lead) + x.shape
        return x.picking(SourceIndices(inputShape: padded, coordinates: coordinates), shape: outputShape)
    }

    static func tile(_ args: ReferenceInputs, outputShape: [Int]) throws -> Tensor {
        let x = try args.tensor(0)
        let coordinates = outputShape.indices.map { axis in (0..<outputShape[axis]).map { $0 % x.shape[axis] } }
        return x.picking(SourceIndices(inputShape: x.shape, coordinates: coordinates), shape: outputShape)
    }

    /// Slices of `data` along `axis` at each of `indices` (negative ones count from the end).
    static func gather(_ args: ReferenceInputs, axis: Int, outputShape: [Int]) throws -> Tensor {
        let data = try args.tensor(0), indexTensor = try args.tensor(1)
        guard let indices = indexTensor.int64s else {
            throw FoveaError(.unsupported, "indices has data type \(indexTensor.dataType); expected int64")
        }
        let resolved = try normalizedAxis(axis, rank: data.rank)
        let dim = data.shape[resolved]
        let outer = data.shape[..<resolved].reduce(1, *), inner = data.shape[(resolved + 1)...].reduce(1, *)
        let positions = try indices.map { raw -> Int in
            let index = Int(raw) < 0 ? Int(raw) + dim : Int(raw)
            guard index >= 0, index < dim else {
                throw FoveaError(.invalidArgument, "index \(raw) is out of range for axis \(resolved) of size \(dim)")
            }
            return index
        }
        var sources: [Int] = []
        sources.reserveCapacity(outputShape.elementCount)
        for o in 0..<outer {
            for index in positions {
                for i in 0..<inner { sources.append((o * dim + index) * inner + i) }
            }
        }
        return data.picking(SourceIndices(sources), shape: outputShape)
    }

    /// DCR: output channel c of block (i, j) is input channel `(i * b + j) * C' + c`; CRD: `c * b² + i * b + j`.
    static func depthToSpace(_ args: ReferenceInputs, block b: Int, columnRowDepth: Bool, outputShape: [Int]) throws -> Tensor {
        let x = try args.tensor(0)
        let (n, c, h, w) = (outputShape[0], outputShape[1], outputShape[2], outputShape[3])
        let (inH, inW) = (h / b, w / b)
        var sources: [Int] = []
        sources.reserveCapacity(outputShape.elementCount)
        for image in 0..<n {
            for channel in 0..<c {
                for y in 0..<h {
                    for xx in 0..<w {
                        let (i, j) = (y % b, xx % b)
                        let source = columnRowDepth ? channel * b * b + i * b + j : (i * b + j) * c + channel
                        sources.append(((image * c * b * b + source) * inH + y / b) * inW + xx / b)
                    }
                }
            }
        }
        return x.picking(SourceIndices(sources), shape: outputShape)
    }

    /// Output channel `(i * b + j) * C + c` holds input channel c at offset (i, j) of each block.
    static func spaceToDepth(_ args: ReferenceInputs, block b: Int, outputShape: [Int]) throws -> Tensor {
        let x = try args.tensor(0)
        let (n, c, h, w) = (x.shape[0], x.shape[1], outputShape[2], outputShape[3])
        var sources: [Int] = []
        sources.reserveCapacity(outputShape.elementCount)
        for image in 0..<n {
            for outChannel in 0..<(c * b * b) {
                let (offset, channel) = (outChannel / c, outChannel % c)
                let (i, j) = (offset / b, offset % b)
                for y in 0..<h {
                    for xx in 0..<w {
                        sources.append(((image * c + channel) * h * b + y * b + i) * w * b + xx * b + j)
                    }
                }
            }
        }
        return x.picking(SourceIndices(sources), shape: outputShape)
    }
}

/// For each output element in row-major order, the index of the input element it copies.
struct SourceIndices: ElementRearrangement {
    let sources: [Int]

    init(_ sources: [Int]) {
        self.sources = sources
    }

    /// Output position `p` reads input coordinate `coordinates[axis][p[axis]]` on every axis.
    init(inputShape: [Int], coordinates: [[Int]]) {
        let strides = inputShape.rowMajorStrides
        var sources = [0]
        for (axis, list) in coordinates.enumerated() {
            sources = sources.flatMap { base in list.map { base + $0 * strides[axis] } }
        }
        self.sources = sources
    }

    func apply<Element>(_ elements: [Element], fill: Element) -> [Element] {
        sources.map { elements[$0] }
    }
}

extension Tensor {
    /// A tensor of `shape` whose elements are this tensor's at `indices`.
    func picking(_ indices: SourceIndices, shape: [Int]) -> Tensor {
        Tensor(uncheckedShape: shape, storage: storage.rearranged(by: indices))
    }
}
