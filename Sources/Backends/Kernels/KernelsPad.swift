import FoveaCore

/// Constant-mode Pad of a float32 tensor (Swin's windows pad this way, often by
/// nothing): the output is filled with the value only where it has padding,
/// and the input's overlap is copied one run of the last axis at a time.
/// Negative pads crop.
enum KernelsPad: KernelsOperatorFamily {
    static func supports(_ node: NodeContext) -> Bool {
        (try? plan(node)) != nil
    }

    static func prepare(_ node: NodeContext, _ backend: KernelsBackend) throws -> any PreparedStep {
        try plan(node)
    }

    static func plan(_ node: NodeContext) throws -> PadStep {
        guard case .pad(let pads, let value, let axes) = node.op, node.outputTypes.count == 1,
              let input = node.inputType(0), input.dataType == .float32, node.outputTypes[0].dataType == .float32 else {
            throw FoveaError(.unsupported, "the kernels run constant Pad of float32")
        }
        let (begin, end) = try Op.resolvedPads(pads, axes: axes, rank: input.shape.count)
        let output = zip(input.shape, zip(begin, end)).map { $0 + $1.0 + $1.1 }
        guard output == node.outputTypes[0].shape, output.allSatisfy({ $0 >= 0 }) else {
            throw FoveaError(.shapeMismatch, "Pad output is planned as \(node.outputTypes[0].shape); expected \(output)")
        }
        return PadStep(inputShape: input.shape, outputShape: output, begin: begin, value: value)
    }

    struct PadStep: PreparedStep {
        let outputShape: [Int]
        /// Output index `o` on axis i reads input index `o - begin[i]`.
        let begin: [Int]
        let value: Float
        /// The output range that reads the input on each axis, `[lo, hi)`;
        /// empty on some axis when the output is all `value`.
        let lo: [Int], hi: [Int]
        let inStrides: [Int], outStrides: [Int]
        /// Some output element lies outside the input's copy.
        let hasBorder: Bool

        init(inputShape: [Int], outputShape: [Int], begin: [Int], value: Float) {
            self.outputShape = outputShape
            self.begin = begin
            self.value = value
            let rank = outputShape.count
            lo = (0..<rank).map { max(0, begin[$0]) }
            hi = (0..<rank).map { min(outputShape[$0], inputShape[$0] + begin[$0]) }
            inStrides = inputShape.rowMajorStrides
            outStrides = outputShape.rowMajorStrides
            hasBorder = lo != [Int](repeating: 0, count: rank) || hi != outputShape
        }

        var algorithm: String { "pad rows" }

        func run(_ buffers: StepBuffers, context: RunContext) throws {
            let x = try buffers.input(0, "Pad").floats, y = buffers.outputs[0].floats
            let rank = outputShape.count
            let count = outputShape.elementCount
            guard count > 0 else { return }
            guard rank > 0 else { y[0] = x[0]; return }
            if zip(lo, hi).contains(where: { $0 >= $1 }) {
                y.update(repeating: value, count: count)
                return
            }
            if hasBorder { y.update(repeating: value, count: count) }
            let run = hi[rank - 1] - lo[rank - 1]
            var index = lo
            while true {
                var inOffset = 0, outOffset = 0
                for axis in 0..<rank {
                    inOffset += (index[axis] - begin[axis]) * inStrides[axis]
                    outOffset += index[axis] * outStrides[axis]
                }
                (y + outOffset).update(from: x + inOffset, count: run)
                // The next run: the odometer over every axis but the last.
                var axis = rank - 2
                while axis >= 0 {
                    index[axis] += 1
                    if index[axis] < hi[axis] { break }
                    index[axis] = lo[axis]
                    axis -= 1
                }
                if axis < 0 { return }
            }
        }
    }
}
