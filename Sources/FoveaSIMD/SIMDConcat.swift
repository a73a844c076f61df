import FoveaCore

/// Concat of float32 tensors along any axis, as block copies: for each index
/// of the axes before `axis`, each input contributes one contiguous block.
/// Other element types are left to the reference backend.
enum SIMDConcat: SIMDOperatorFamily {
    static func supports(_ node: NodeContext) -> Bool {
        guard case .concat = node.op else { return false }
        return SIMDStepSupport.isPlannedFloatNode(node)
    }

    static func prepare(_ node: NodeContext) throws -> any PreparedStep {
        guard case .concat(let axis) = node.op else {
            throw FoveaError(.unsupported, "\(node.op.typeName) is not Concat")
        }
        let shapes = try SIMDStepSupport.plannedShapes(node)
        let output = try SIMDStepSupport.plannedOutputShape(node)
        let resolved = try normalizedAxis(axis, rank: output.count)
        let blocks = shapes.map { $0[resolved...].reduce(1, *) }
        // Where each input's block starts inside an output row.
        var starts: [Int] = [], running = 0
        for block in blocks { starts.append(running); running += block }
        return ConcatStep(inputShapes: shapes, outputShape: output, outer: output[..<resolved].reduce(1, *),
                          blocks: blocks, starts: starts)
    }

    struct ConcatStep: PreparedStep {
        let inputShapes: [[Int]]
        let outputShape: [Int]
        /// Product of the dimensions before the axis.
        let outer: Int
        /// Each input's contiguous block per outer index.
        let blocks: [Int]
        /// Where each input's block starts inside an output row of `blocks.reduce(0, +)` elements.
        let starts: [Int]

        var algorithm: String { "block copy" }

        func run(_ inputs: [Tensor?], context: RunContext) throws -> [Tensor] {
            let values = try inputShapes.indices.map {
                try SIMDStepSupport.floats(inputs, $0, shape: inputShapes[$0], op: "Concat")
            }
            let total = outputShape.elementCount
            let (outer, blocks, starts) = (self.outer, self.blocks, self.starts)
            let rowLength = blocks.reduce(0, +)
            let output = SIMDStepSupport.makeFloats(count: total) { out in
                copyAll(values, blocks: blocks, starts: starts, outer: outer, rowLength: rowLength, out: out, context: context)
            }
            return [try Tensor(shape: outputShape, floats: output)]
        }
    }

    /// Copies every (outer index, input) block into place, the blocks shared among threads.
    private static func copyAll(_ values: [[Float]], blocks: [Int], starts: [Int], outer: Int, rowLength: Int,
                                out: SIMDStepSupport.SharedOutput, context: RunContext) {
        let inputCount = values.count
        SIMDStepSupport.parallelFor(context, count: outer * inputCount, work: outer * rowLength) { range in
            for task in range {
                let o = task / inputCount, index = task % inputCount
                let block = blocks[index]
                guard block > 0 else { continue }
                values[index].withUnsafeBufferPointer { source in
                    guard let base = source.baseAddress else { return }
                    (out.base + o * rowLength + starts[index]).initialize(from: base + o * block, count: block)
                }
            }
        }
    }
}
