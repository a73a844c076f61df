/// Transcendental functions on whole vectors (the standard library has none).
enum SIMDVectorMath {
    typealias Vector = SIMD16<Float>

    /// `e^x` per lane, within about 2 ulp of `expf` (Cephes' polynomial with a
    /// Cody–Waite range reduction). Overflows to +inf above ~88.72, underflows
    /// through the subnormals to 0, and keeps NaN.
    ///
    /// Plain `a * b + c` on purpose: `addProduct` without a target CPU compiles
    /// to per-lane `fmaf` calls (see TOOLCHAIN.md).
    @inline(__always)
    static func exp(_ x: Vector) -> Vector {
        // Beyond these bounds the result is already +inf or 0.
        // NaN lanes compute e^0 and are restored at the end; no NaN reaches the integer conversion.
        let low = Vector(repeating: -104), high = Vector(repeating: 89)
        let finite = x.replacing(with: 0, where: x .!= x)
        let clamped = low.replacing(with: high.replacing(with: finite, where: finite .< high), where: finite .> low)
        // Round to nearest even by adding and subtracting 1.5 · 2^23: plain vector
        // adds, where `.rounded` and a trapping Int32 conversion compiled to
        // per-lane calls (41 ms for a 1.2 M-element softmax, against 0.4 ms in C).
        // The integer n is then the low bits of the biased sum.
        let magic = Vector(repeating: 12582912)
        let biased = clamped * 1.44269504088896341 + magic
        let n = biased - magic
        // x - n ln2 in two parts so the reduction is exact to float precision.
        let r = clamped - n * 0.693359375 + n * 2.12194440e-4
        var p = Vector(repeating: 1.9875691500e-4)
        p = p * r + 1.3981999507e-3
        p = p * r + 8.3334519073e-3
        p = p * r + 4.1665795894e-2
        p = p * r + 1.6666665459e-1
        p = p * r + 5.0000001201e-1
        p = p * (r * r) + r + Vector(repeating: 1)
        // 2^n as two factors, each a normal float, so that n down to -150
        // (subnormal results) and up to 128 (overflow) scale correctly.
        let whole = unsafeBitCast(biased, to: SIMD16<Int32>.self) &- 0x4B40_0000
        let half = whole &>> 1
        let first = unsafeBitCast((half &+ 127) &<< 23, to: Vector.self)
        let second = unsafeBitCast((whole &- half &+ 127) &<< 23, to: Vector.self)
        let result = p * first * second
        return result.replacing(with: x, where: x .!= x)
    }
}
