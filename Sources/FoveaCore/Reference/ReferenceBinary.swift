/// Elementwise binary ops with numpy broadcasting: Add, Sub, Mul, Div, Pow,
/// PRelu, and the n-ary Sum, Max and Min.
enum ReferenceBinary {
    /// `combine(a, b)` over the broadcast of inputs 0 and 1.
    static func run(_ args: ReferenceInputs, outputShape: [Int], _ combine: (Float, Float) -> Float) throws -> Tensor {
        let a = try args.tensor(0), b = try args.tensor(1)
        let values = broadcast(try a.requireFloats("A"), a.shape, try b.requireFloats("B"), b.shape,
                               to: outputShape, combine)
        return Tensor(uncheckedShape: outputShape, floats: values)
    }

    /// Add, Sub, Mul or Div of two int64 tensors (shape arithmetic): wrapping
    /// on overflow, division truncating toward zero (as ONNX runtimes do).
    static func integerArithmetic(_ op: Op, _ args: ReferenceInputs, outputShape: [Int]) throws -> Tensor {
        let a = try args.tensor(0), b = try args.tensor(1)
        guard let x = a.int64s, let y = b.int64s else {
            throw FoveaError(.unsupported, "A has data type \(a.dataType) and B \(b.dataType); expected two int64 tensors")
        }
        if case .div = op, y.contains(0) {
            throw FoveaError(.invalidArgument, "integer division by zero")
        }
        let combine: (Int64, Int64) -> Int64
        switch op {
        case .add: combine = { $0 &+ $1 }
        case .sub: combine = { $0 &- $1 }
        case .mul: combine = { $0 &* $1 }
        // Int64.min / -1 wraps instead of trapping.
        default: combine = { $0.dividedReportingOverflow(by: $1).partialValue }
        }
        return Tensor(uncheckedShape: outputShape, storage: .int64(broadcast(x, a.shape, y, b.shape, to: outputShape, combine)))
    }

    /// Sum of all inputs, broadcast together, added left to right.
    static func sum(_ args: ReferenceInputs, outputShape: [Int]) throws -> Tensor {
        try fold(args, outputShape: outputShape, +)
    }

    /// The elementwise largest (`largest == true`) or smallest of all inputs; NaN wins (numpy's maximum/minimum).
    static func extremum(_ args: ReferenceInputs, outputShape: [Int], largest: Bool) throws -> Tensor {
        try fold(args, outputShape: outputShape) { a, b in
            if a.isNaN || b.isNaN { return .nan }
            return largest ? Swift.max(a, b) : Swift.min(a, b)
        }
    }

    /// All inputs, broadcast together, combined left to right with `combine`.
    private static func fold(_ args: ReferenceInputs, outputShape: [Int], _ combine: (Float, Float) -> Float) throws -> Tensor {
        var total = try args.tensor(0)
        for index in 1..<max(1, args.tensors.count) {
            let next = try args.tensor(index)
            let shape = try broadcastShape(total.shape, next.shape)
            let values = broadcast(try total.requireFloats("input 0"), total.shape, try next.requireFloats("input \(index)"),
                                   next.shape, to: shape, combine)
            total = Tensor(uncheckedShape: shape, floats: values)
        }
        // A single input, or inputs that all broadcast to a smaller shape than planned, still get the planned shape.
        return try total.reshaped(outputShape)
    }

    /// `combine(a[i], b[i])` for every index `i` of `outputShape`, reading each
    /// operand through its broadcast strides. The last axis is the inner loop.
    static func broadcast<Element>(_ a: [Element], _ aShape: [Int], _ b: [Element], _ bShape: [Int],
                                   to outputShape: [Int], _ combine: (Element, Element) -> Element) -> [Element] {
        let count = outputShape.elementCount
        if aShape == bShape { return zip(a, b).map(combine) }
        guard count > 0 else { return [] }
        let aStrides = aShape.broadcastStrides(to: outputShape)
        let bStrides = bShape.broadcastStrides(to: outputShape)
        let inner = outputShape.last ?? 1
        let aStep = aStrides.last ?? 0, bStep = bStrides.last ?? 0
        let outerShape = Array(outputShape.dropLast())
        var output: [Element] = []
        output.reserveCapacity(count)
        var position = [Int](repeating: 0, count: outerShape.count)
        for _ in 0..<(count / inner) {
            var aOffset = 0, bOffset = 0
            for axis in outerShape.indices {
                aOffset += position[axis] * aStrides[axis]
                bOffset += position[axis] * bStrides[axis]
            }
            for i in 0..<inner {
                output.append(combine(a[aOffset + i * aStep], b[bOffset + i * bStep]))
            }
            position.advanceRowMajor(within: outerShape)
        }
        return output
    }
}
