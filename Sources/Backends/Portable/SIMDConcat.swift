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
        return ConcatStep(outer: output[..<resolved].reduce(1, *), blocks: blocks, starts: starts)
    }

    struct ConcatStep: PreparedStep {
        /// Product of the dimensions before the axis.
        let outer: Int
        /// Each input's contiguous block per outer index.
        let blocks: [Int]
        /// Where each input's block starts inside an output row of `blocks.reduce(0, +)` elements.
        let starts: [Int]

        var algorithm: String { "block copy" }

        func run(_ buffers: StepBuffers, context: RunContext) throws {
            for index in blocks.indices { _ = try buffers.input(index, "Concat") }
            let out = SIMDStepSupport.SharedOutput(buffers.outputs[0])
            let (outer, blocks, starts) = (self.outer, self.blocks, self.starts)
            let rowLength = blocks.reduce(0, +)
            let inputCount = blocks.count
            // Every (outer index, input) block is one task; the tasks are shared among threads.
            SIMDStepSupport.parallelFor(context, count: outer * inputCount, work: outer * rowLength) { range in
                for task in range {
                    let o = task / inputCount, index = task % inputCount
                    let block = blocks[index]
                    guard block > 0, let input = buffers.inputs[index] else { continue }
                    (out.base + o * rowLength + starts[index]).update(from: input.floats + o * block, count: block)
                }
            }
        }
    }
}
