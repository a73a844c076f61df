#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// ONNX Mod with numpy broadcasting: on int64 (shape arithmetic such as Swin's
/// window padding, `(w - W % w) % w`) and, with `fmod`, on float32.
enum ReferenceRemainder {
    static func run(_ args: ReferenceInputs, fmod truncated: Bool, outputShape: [Int]) throws -> Tensor {
        let a = try args.tensor(0), b = try args.tensor(1)
        switch (a.storage, b.storage) {
        case (.int64(let x), .int64(let y)):
            guard !y.contains(0) else { throw FoveaError(.invalidArgument, "integer modulo by zero") }
            let values = ReferenceBinary.broadcast(x, a.shape, y, b.shape, to: outputShape) { p, q in
                // Int64.min % -1 overflows in Swift; its remainder is 0.
                let r = p.remainderReportingOverflow(dividingBy: q).partialValue
                // Swift's % keeps the dividend's sign (fmod); Python's % takes the divisor's.
                return !truncated && r != 0 && (r < 0) != (q < 0) ? r &+ q : r
            }
            return Tensor(uncheckedShape: outputShape, storage: .int64(values))
        case (.float32(let x), .float32(let y)):
            // Shape inference allows float32 only with fmod = 1: C's fmod, the dividend's sign.
            return Tensor(uncheckedShape: outputShape, floats: ReferenceBinary.broadcast(x, a.shape, y, b.shape, to: outputShape) { fmodf($0, $1) })
        default:
            throw FoveaError(.unsupported, "A has data type \(a.dataType) and B \(b.dataType); Mod computes on two float32 or two int64 tensors")
        }
    }
}
