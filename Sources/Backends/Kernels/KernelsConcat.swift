import FoveaCore

/// Concat of float32 (or 8-bit) tensors along any axis. The planner usually elides it
/// (producers write into their slices); when it cannot, the step copies one
/// contiguous block per (index before the axis, input), on the calling
/// thread: concatenation is a memory copy, not worth a parallel region.
enum KernelsConcat: KernelsOperatorFamily {
    static func supports(_ node: NodeContext) -> Bool {
        // float32, or the 8-bit values of a quantized model (a byte copy).
        guard case .concat = node.op, node.outputTypes.count == 1, [.float32, .uint8, .int8].contains(node.outputTypes[0].dataType),
              !node.inputTypes.isEmpty, node.inputTypes.allSatisfy({ $0?.dataType == node.outputTypes[0].dataType }),
              let inferred = try? node.op.outputTypes(inputs: node.inputTypes, outputCount: 1) else { return false }
        return inferred == node.outputTypes
    }

    static func prepare(_ node: NodeContext, _ backend: KernelsBackend) throws -> any PreparedStep {
        guard case .concat(let axis) = node.op, let output = node.outputTypes.first?.shape else {
            throw FoveaError(.unsupported, "\(node.op.typeName) is not Concat")
        }
        let resolved = axis < 0 ? axis + output.count : axis
        guard resolved >= 0, resolved < output.count else {
            throw FoveaError(.invalidAttribute, "Concat axis \(axis) is outside rank \(output.count)")
        }
        let blocks = try node.inputTypes.map { type -> Int in
            guard let type else { throw FoveaError(.invalidArgument, "Concat: an input is missing") }
            return type.shape[resolved...].reduce(1, *)
        }
        let elementSize = node.outputTypes[0].dataType.byteSize
        return ConcatStep(outer: output[..<resolved].reduce(1, *), blocks: blocks.map { $0 * elementSize })
    }

    struct ConcatStep: PreparedStep {
        /// Product of the dimensions before the axis.
        let outer: Int
        /// Each input's contiguous block per outer index, in bytes.
        let blocks: [Int]

        var algorithm: String { "block copy" }

        func run(_ buffers: StepBuffers, context: RunContext) throws {
            let out = buffers.outputs[0].base
            let rowLength = blocks.reduce(0, +)
            for o in 0..<outer {
                var start = 0
                for (index, block) in blocks.enumerated() {
                    let input = try buffers.input(index, "Concat")
                    (out + o * rowLength + start).copyMemory(from: input.base + o * block, byteCount: block)
                    start += block
                }
            }
        }
    }
}
