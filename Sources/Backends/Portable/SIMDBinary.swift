#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import FoveaCore

/// Add, Sub, Mul, Div, Max, Min, Pow, PRelu (two inputs) and the n-ary Sum
/// with numpy broadcasting.
///
/// A ``SIMDBroadcastPlan`` made at prepare time turns every shape pair into
/// rows where each operand advances by 1 or 0, which covers same-shape,
/// scalar and per-channel (`[C,1,1]`, `[1,C,1,1]`) operands with contiguous
/// vector loops; any other broadcast runs the same rows with a gather. Each
/// element is the single IEEE operation the reference does (Max and Min its
/// NaN and ±0 rules, Pow the C library's `powf` lane by lane), so results
/// match it exactly.
enum SIMDBinary: SIMDOperatorFamily {
    typealias Vector = SIMDStepSupport.Vector

    enum Operation: Sendable, Equatable {
        case add, sub, mul, div, maximum, minimum, pow, prelu

        init?(_ op: Op) {
            switch op {
            case .add: self = .add
            case .sub: self = .sub
            case .mul: self = .mul
            case .div: self = .div
            case .maximum: self = .maximum
            case .minimum: self = .minimum
            case .pow: self = .pow
            case .prelu: self = .prelu
            default: return nil
            }
        }
    }

    static func supports(_ node: NodeContext) -> Bool {
        switch node.op {
        case .sum: break
        default:
            guard Operation(node.op) != nil, node.inputTypes.count == 2 else { return false }
        }
        return SIMDStepSupport.isPlannedFloatNode(node)
    }

    static func prepare(_ node: NodeContext) throws -> any PreparedStep {
        let shapes = try SIMDStepSupport.plannedShapes(node)
        let output = try SIMDStepSupport.plannedOutputShape(node)
        if case .sum = node.op {
            // Left to right, each partial sum broadcast with the next input, as the reference adds.
            var stages: [SIMDBroadcastPlan] = []
            var current = shapes.first ?? []
            for shape in shapes.dropFirst() {
                let combined = try broadcastShape(current, shape)
                stages.append(try SIMDBroadcastPlan(a: current, b: shape, output: combined))
                current = combined
            }
            guard current.elementCount == output.elementCount else {
                throw FoveaError(.shapeMismatch, "Sum of \(shapes.map(\.shapeDescription)) does not give \(output.shapeDescription)")
            }
            return BinaryStep(operation: .add, inputShapes: shapes, outputShape: output, stages: stages, opName: "Sum")
        }
        guard let operation = Operation(node.op), shapes.count == 2 else {
            throw FoveaError(.unsupported, "the simd backend has no binary operator \(node.op.typeName)")
        }
        let plan = try SIMDBroadcastPlan(a: shapes[0], b: shapes[1], output: output)
        return BinaryStep(operation: operation, inputShapes: shapes, outputShape: output, stages: [plan], opName: node.op.typeName)
    }

    /// Output elements per parallel work item.
    static let blockSize = 4096

    /// One binary op, or a chain of them (Sum): stage `i` combines the
    /// running result with input `i + 1`.
    struct BinaryStep: PreparedStep {
        let operation: Operation
        let inputShapes: [[Int]]
        let outputShape: [Int]
        let stages: [SIMDBroadcastPlan]
        let opName: String
        /// The leading Sum stages whose result is smaller than the output:
        /// they ping-pong between two workspace buffers of `partialCount` floats.
        private let partialStages: Int
        private let partialCount: Int

        init(operation: Operation, inputShapes: [[Int]], outputShape: [Int], stages: [SIMDBroadcastPlan], opName: String) {
            self.operation = operation
            self.inputShapes = inputShapes
            self.outputShape = outputShape
            self.stages = stages
            self.opName = opName
            let total = outputShape.elementCount
            let partial = stages.prefix { $0.count != total }
            partialStages = partial.count
            partialCount = partial.map(\.count).max() ?? 0
        }

        var algorithm: String {
            stages.isEmpty ? "copy" : Set(stages.map(\.kind)).sorted().joined(separator: "+")
        }

        /// An input of the output's shape is read at the same position as the
        /// element written, a vector (or partial vector) before it is stored.
        /// Not for Sum of three or more: a later stage could read the same tensor
        /// through another input after the first stage overwrote it.
        var overwritableInput: Int? {
            guard inputShapes.count <= 2, partialStages == 0 else { return nil }
            return inputShapes.firstIndex(of: outputShape)
        }

        func workspaceBytes(threads: Int) -> Int {
            SIMDStepSupport.workspaceBytes(slices: Swift.min(partialStages, 2), floats: partialCount)
        }

        func run(_ buffers: StepBuffers, context: RunContext) throws {
            let output = buffers.outputs[0]
            let first = try buffers.input(0, opName)
            guard !stages.isEmpty else {
                // Sum of one input.
                if first.base != output.base {
                    output.floats.update(from: first.floats, count: output.count)
                }
                return
            }
            let partial = partialStages > 0 ? try buffers.floatWorkspace(opName) : nil
            var current = UnsafePointer(first.floats)
            for (index, plan) in stages.enumerated() {
                let b = try buffers.input(index + 1, opName)
                let destination = index < partialStages
                    ? partial! + index % 2 * SIMDStepSupport.alignedFloats(partialCount) : output.floats
                combine(current, UnsafePointer(b.floats), destination, plan, context: context)
                current = UnsafePointer(destination)
            }
        }

        private func combine(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>,
                             _ plan: SIMDBroadcastPlan, context: RunContext) {
            let operation = self.operation
            let (a, b, out) = (SIMDStepSupport.SharedInput(base: a), SIMDStepSupport.SharedInput(base: b),
                               SIMDStepSupport.SharedOutput(base: out))
            let blocks = (plan.count + blockSize - 1) / blockSize
            SIMDStepSupport.parallelFor(context, count: blocks, work: plan.count) { range in
                SIMDBinary.run(operation, plan, a.base, b.base, out.base,
                               range.lowerBound * blockSize, Swift.min(plan.count, range.upperBound * blockSize))
            }
        }
    }

    /// Output elements `start ..< end` of `plan`, row piece by row piece.
    static func run(_ operation: Operation, _ plan: SIMDBroadcastPlan, _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>,
                    _ out: UnsafeMutablePointer<Float>, _ start: Int, _ end: Int) {
        var position = start
        while position < end {
            let row = position / plan.inner, column = position % plan.inner
            let length = Swift.min(plan.inner - column, end - position)
            let offsets = plan.rowOffsets(row)
            let aRow = a + offsets.a + column * plan.aStep
            let bRow = b + offsets.b + column * plan.bStep
            switch operation {
            case .add: rowKernel(aRow, plan.aStep, bRow, plan.bStep, out + position, length) { $0 + $1 }
            case .sub: rowKernel(aRow, plan.aStep, bRow, plan.bStep, out + position, length) { $0 - $1 }
            case .mul: rowKernel(aRow, plan.aStep, bRow, plan.bStep, out + position, length) { $0 * $1 }
            case .div: rowKernel(aRow, plan.aStep, bRow, plan.bStep, out + position, length) { $0 / $1 }
            case .maximum:
                // b >= a ? b : a (Swift.max), NaN if either is.
                rowKernel(aRow, plan.aStep, bRow, plan.bStep, out + position, length) { a, b in
                    b.replacing(with: a, where: a .> b).replacing(with: a, where: a .!= a)
                }
            case .minimum:
                // b < a ? b : a (Swift.min), NaN if either is.
                rowKernel(aRow, plan.aStep, bRow, plan.bStep, out + position, length) { a, b in
                    a.replacing(with: b, where: b .< a).replacing(with: b, where: b .!= b)
                }
            case .pow:
                rowKernel(aRow, plan.aStep, bRow, plan.bStep, out + position, length) { a, b in
                    var result = Vector()
                    for lane in 0..<Vector.scalarCount { result[lane] = powf(a[lane], b[lane]) }
                    return result
                }
            case .prelu:
                // x < 0 ? slope * x : x (NaN stays NaN).
                rowKernel(aRow, plan.aStep, bRow, plan.bStep, out + position, length) { x, slope in
                    x.replacing(with: slope * x, where: x .< 0)
                }
            }
            position += length
        }
    }

    /// `out[i] = combine(a[i * aStep], b[i * bStep])` for `i < count`.
    @inline(__always)
    static func rowKernel(_ a: UnsafePointer<Float>, _ aStep: Int, _ b: UnsafePointer<Float>, _ bStep: Int,
                          _ out: UnsafeMutablePointer<Float>, _ count: Int, _ combine: (Vector, Vector) -> Vector) {
        let width = SIMDStepSupport.width
        var i = 0
        switch (aStep, bStep) {
        case (1, 1):
            while i + width <= count {
                SIMDStepSupport.store(combine(SIMDStepSupport.load(a + i), SIMDStepSupport.load(b + i)), out + i)
                i += width
            }
        case (1, 0):
            let splat = Vector(repeating: b[0])
            while i + width <= count {
                SIMDStepSupport.store(combine(SIMDStepSupport.load(a + i), splat), out + i)
                i += width
            }
        case (0, 1):
            let splat = Vector(repeating: a[0])
            while i + width <= count {
                SIMDStepSupport.store(combine(splat, SIMDStepSupport.load(b + i)), out + i)
                i += width
            }
        default:
            break
        }
        // The tail (and any other stride pair) gathers lanes one by one.
        while i < count {
            let lanes = Swift.min(width, count - i)
            var va = Vector(), vb = Vector()
            for lane in 0..<lanes {
                va[lane] = a[(i + lane) * aStep]
                vb[lane] = b[(i + lane) * bStep]
            }
            SIMDStepSupport.storePartial(combine(va, vb), out + i, lanes)
            i += lanes
        }
    }
}
