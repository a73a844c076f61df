// Fused activation codes of the kernels' `activation` parameter
// (`KernelActivation` maps FoveaCore's `FusedActivation` to them):
// 0 none; 1 relu; 2 leaky relu (`p0` = alpha); 3 clip (`p0` = lower, `p1` = upper).

/// The fused activation of one vector, with the standalone operators' exact
/// semantics: relu `x > 0 ? x : 0` (NaN gives 0), leaky relu
/// `x >= 0 ? x : alpha·x`, clip `min(upper, max(lower, x))` with NaN kept.
/// Concrete per vector width (not generic) so it always lowers to vector
/// compares and blends.
@inline(__always)
func activate(_ v: SIMD16<Float>, _ activation: Int, _ p0: Float, _ p1: Float) -> SIMD16<Float> {
    typealias V = SIMD16<Float>
    switch activation {
    case 1:
        return V(repeating: 0).replacing(with: v, where: v .> 0)
    case 2:
        return (v * p0).replacing(with: v, where: v .>= 0)
    case 3:
        let lower = V(repeating: p0), upper = V(repeating: p1)
        let raised = lower.replacing(with: v, where: v .>= lower)
        let clamped = upper.replacing(with: raised, where: raised .< upper)
        return clamped.replacing(with: v, where: v .!= v)
    default:
        return v
    }
}

/// ``activate(_:_:_:_:)`` for 8 lanes.
@inline(__always)
func activate(_ v: SIMD8<Float>, _ activation: Int, _ p0: Float, _ p1: Float) -> SIMD8<Float> {
    typealias V = SIMD8<Float>
    switch activation {
    case 1:
        return V(repeating: 0).replacing(with: v, where: v .> 0)
    case 2:
        return (v * p0).replacing(with: v, where: v .>= 0)
    case 3:
        let lower = V(repeating: p0), upper = V(repeating: p1)
        let raised = lower.replacing(with: v, where: v .>= lower)
        let clamped = upper.replacing(with: raised, where: raised .< upper)
        return clamped.replacing(with: v, where: v .!= v)
    default:
        return v
    }
}

/// Applies the fused activation to `count` contiguous values in place.
@inline(__always)
func activateInPlace(_ y: UnsafeMutablePointer<Float>, count: Int, _ activation: Int, _ p0: Float, _ p1: Float) {
    guard activation != 0 else { return }
    typealias V = SIMD16<Float>
    let raw = UnsafeMutableRawPointer(y)
    var i = 0
    while i + V.scalarCount <= count {
        let v = raw.loadUnaligned(fromByteOffset: i * 4, as: V.self)
        raw.storeBytes(of: activate(v, activation, p0, p1), toByteOffset: i * 4, as: V.self)
        i += V.scalarCount
    }
    while i < count {
        y[i] = activate(SIMD8<Float>(repeating: y[i]), activation, p0, p1)[0]
        i += 1
    }
}
