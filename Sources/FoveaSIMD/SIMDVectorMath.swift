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
        let clamped = x.replacing(with: 0, where: x .!= x).clamped(lowerBound: Vector(repeating: -104), upperBound: Vector(repeating: 89))
        let n = (clamped * 1.44269504088896341).rounded(.toNearestOrEven)
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
        let whole = SIMD16<Int32>(n)
        let half = whole &>> 1
        let first = unsafeBitCast((half &+ 127) &<< 23, to: Vector.self)
        let second = unsafeBitCast((whole &- half &+ 127) &<< 23, to: Vector.self)
        let result = p * first * second
        return result.replacing(with: x, where: x .!= x)
    }
}
