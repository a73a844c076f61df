#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import FoveaCore

/// Softmax and LogSoftmax, over one axis (opset ≥ 13) or over all axes from
/// `axis` on (`coercedTo2D`, opset < 13).
///
/// The data is viewed as `[outer, length, inner]` and the softmax runs along
/// `length`; the maximum is subtracted first so `exp` cannot overflow. With
/// `inner == 1` (the last axis, the classifier case) the vectors run along
/// the row; otherwise they run across 16 neighbouring `inner` positions at
/// once, so the strided axis costs no gathers.
enum SIMDSoftmax: SIMDOperatorFamily {
    typealias Vector = SIMDStepSupport.Vector

    static func supports(_ node: NodeContext) -> Bool {
        switch node.op {
        case .softmax, .logSoftmax: break
        default: return false
        }
        return node.inputTypes.count == 1 && SIMDStepSupport.isPlannedFloatNode(node)
    }

    static func prepare(_ node: NodeContext) throws -> any PreparedStep {
        let attributes: SoftmaxAttributes, logarithm: Bool
        switch node.op {
        case .softmax(let a): attributes = a; logarithm = false
        case .logSoftmax(let a): attributes = a; logarithm = true
        default: throw FoveaError(.unsupported, "\(node.op.typeName) is not Softmax or LogSoftmax")
        }
        let shape = try SIMDStepSupport.plannedOutputShape(node)
        let axis = try normalizedAxis(attributes.axis, rank: shape.count)
        let outer = shape[..<axis].reduce(1, *)
        let length = attributes.coercedTo2D ? shape[axis...].reduce(1, *) : shape[axis]
        let inner = attributes.coercedTo2D ? 1 : shape[(axis + 1)...].reduce(1, *)
        return SoftmaxStep(outer: outer, length: length, inner: inner, logarithm: logarithm,
                           opName: node.op.typeName)
    }

    struct SoftmaxStep: PreparedStep {
        let outer: Int
        let length: Int
        let inner: Int
        let logarithm: Bool
        let opName: String

        var algorithm: String { inner == 1 ? "vector rows" : "vector columns" }

        func run(_ buffers: StepBuffers, context: RunContext) throws {
            let source = SIMDStepSupport.SharedInput(try buffers.input(0, opName))
            let out = SIMDStepSupport.SharedOutput(buffers.outputs[0])
            let count = buffers.outputs[0].count
            guard count > 0 else { return }
            let (outer, length, inner, logarithm) = (self.outer, self.length, self.inner, self.logarithm)
            let width = SIMDStepSupport.width
            if inner == 1 {
                SIMDStepSupport.parallelFor(context, count: outer, work: count) { range in
                    for row in range {
                        let offset = row * length
                        SIMDSoftmax.row(source.base + offset, out.base + offset, length, logarithm)
                    }
                }
            } else {
                let groups = (inner + width - 1) / width
                SIMDStepSupport.parallelFor(context, count: outer * groups, work: count) { range in
                    for task in range {
                        let o = task / groups, first = (task % groups) * width
                        let offset = o * length * inner + first
                        SIMDSoftmax.columns(source.base + offset, out.base + offset, length, inner,
                                            Swift.min(width, inner - first), logarithm)
                    }
                }
            }
        }
    }

    /// Softmax of `length` contiguous elements.
    static func row(_ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, _ length: Int, _ logarithm: Bool) {
        let width = SIMDStepSupport.width
        let full = length - length % width
        // The maximum ignores NaN like the reference's Swift.max fold (NaN then spreads through the sum).
        var lanes = Vector(repeating: -.infinity)
        var i = 0
        while i < full {
            let v = SIMDStepSupport.load(x + i)
            lanes = lanes.replacing(with: v, where: v .>= lanes)
            i += width
        }
        var maximum = lanes.max()
        for j in full..<length where x[j] >= maximum { maximum = x[j] }

        let shift = Vector(repeating: maximum)
        var sums = Vector()
        i = 0
        while i < full {
            let e = SIMDVectorMath.exp(SIMDStepSupport.load(x + i) - shift)
            if !logarithm { SIMDStepSupport.store(e, y + i) }
            sums += e
            i += width
        }
        if full < length {
            let count = length - full
            let e = SIMDVectorMath.exp(SIMDStepSupport.loadPartial(x + full, count) - shift)
            if !logarithm { SIMDStepSupport.storePartial(e, y + full, count) }
            sums += Vector(repeating: 0).replacing(with: e, where: Self.lanesBelow(count))
        }
        let total = sums.sum()
        if logarithm {
            let logTotal = Vector(repeating: logf(total))
            SIMDStepSupport.map(x, y, count: length) { v in (v - shift) - logTotal }
        } else {
            let divisor = Vector(repeating: total)
            SIMDStepSupport.map(UnsafePointer(y), y, count: length) { e in e / divisor }
        }
    }

    /// Softmax along a strided axis for `lanes` (≤ 16) neighbouring columns:
    /// element `l` of column `j` is at `l * inner + j`.
    static func columns(_ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, _ length: Int, _ inner: Int,
                        _ lanes: Int, _ logarithm: Bool) {
        let full = lanes == SIMDStepSupport.width
        @inline(__always) func load(_ l: Int) -> Vector {
            full ? SIMDStepSupport.load(x + l * inner) : SIMDStepSupport.loadPartial(x + l * inner, lanes)
        }
        @inline(__always) func store(_ v: Vector, _ l: Int) {
            if full { SIMDStepSupport.store(v, y + l * inner) } else { SIMDStepSupport.storePartial(v, y + l * inner, lanes) }
        }
        var maximum = Vector(repeating: -.infinity)
        for l in 0..<length {
            let v = load(l)
            maximum = maximum.replacing(with: v, where: v .>= maximum)
        }
        var sums = Vector()
        for l in 0..<length {
            let e = SIMDVectorMath.exp(load(l) - maximum)
            if !logarithm { store(e, l) }
            sums += e
        }
        if logarithm {
            var logTotal = Vector()
            for lane in 0..<lanes { logTotal[lane] = logf(sums[lane]) }
            for l in 0..<length { store((load(l) - maximum) - logTotal, l) }
        } else {
            for l in 0..<length {
                let e = full ? SIMDStepSupport.load(UnsafePointer(y + l * inner))
                             : SIMDStepSupport.loadPartial(UnsafePointer(y + l * inner), lanes)
                store(e / sums, l)
            }
        }
    }

    /// A mask of the first `count` lanes.
    @inline(__always)
    static func lanesBelow(_ count: Int) -> SIMDMask<SIMD16<Int32>> {
        SIMD16<Int32>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) .< Int32(count)
    }
}
