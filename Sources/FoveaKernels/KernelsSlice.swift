import FoveaCore

/// Slice with unit steps (ShuffleNet's channel split, `x[:, :c]` / `x[:, c:]`)
/// as copies of contiguous runs: the axes after the last one sliced are whole,
/// so each run is that axis' selected range times the planes below it.
/// Other steps stay on the reference.
enum KernelsSlice: KernelsOperatorFamily {
    static func supports(_ node: NodeContext) -> Bool {
        (try? plan(node)) != nil
    }

    static func prepare(_ node: NodeContext, _ backend: KernelsBackend) throws -> any PreparedStep {
        try plan(node)
    }

    /// At most this many runs per image, so the offsets table stays small.
    static let maximumRuns = 1 << 20

    static func plan(_ node: NodeContext) throws -> SliceCopyStep {
        guard case .slice(let starts, let ends, let axes, let steps) = node.op, let x = node.inputType(0),
              node.outputTypes.count == 1, x.shape.count >= 1 else {
            throw FoveaError(.unsupported, "not a Slice of one tensor")
        }
        let ranges = try Op.sliceRanges(x.shape, starts: starts, ends: ends, axes: axes, steps: steps)
        guard node.outputTypes[0] == TensorType(x.dataType, ranges.map(\.count)) else {
            throw FoveaError(.shapeMismatch, "Slice output is planned as \(node.outputTypes[0].shape); expected \(ranges.map(\.count))")
        }
        guard ranges.allSatisfy({ r in r.indices.dropFirst().allSatisfy { r[$0] == r[$0 - 1] + 1 } }) else {
            throw FoveaError(.unsupported, "the kernels Slice copies unit steps only")
        }
        let shape = x.shape, rank = shape.count
        let strides = shape.rowMajorStrides
        // The run starts at the last sliced axis of an image (axes 1...); axis 0 walks images.
        let lastSliced = (1..<rank).last { ranges[$0].count != shape[$0] } ?? 0
        var offsets = [0]
        if lastSliced > 0 {
            for axis in 1...lastSliced {
                let picked = axis == lastSliced ? Array(ranges[axis].prefix(1)) : ranges[axis]
                guard offsets.count * picked.count <= maximumRuns else {
                    throw FoveaError(.unsupported, "the kernels Slice copies at most \(maximumRuns) runs per image")
                }
                offsets = offsets.flatMap { base in picked.map { base + $0 * strides[axis] } }
            }
        }
        let run = lastSliced > 0 ? ranges[lastSliced].count * strides[lastSliced] : (rank > 1 ? strides[0] : 1)
        return SliceCopyStep(images: ranges[0], offsets: ranges.contains(where: \.isEmpty) ? [] : offsets,
                             runElements: run, elementBytes: x.dataType.byteSize)
    }

    /// Copies `offsets.count` runs of `runElements` from each selected image (`images`) into the dense output.
    struct SliceCopyStep: PreparedStep {
        let images: [Int]
        let offsets: [Int]
        let runElements: Int
        let elementBytes: Int
        var algorithm: String { "slice copy \(offsets.count)x\(runElements)" }

        func run(_ buffers: StepBuffers, context: RunContext) throws {
            let x = try buffers.input(0, "Slice"), y = buffers.outputs[0]
            let runBytes = runElements * elementBytes
            for (i, n) in images.enumerated() {
                let source = x.base + n * x.batchStride * elementBytes
                var target = y.base + i * y.batchStride * elementBytes
                for offset in offsets {
                    target.copyMemory(from: source + offset * elementBytes, byteCount: runBytes)
                    target += runBytes
                }
            }
        }
    }
}
