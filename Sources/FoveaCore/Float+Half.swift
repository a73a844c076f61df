extension Float {
    /// The value of an IEEE 754 binary16 bit pattern (exact: every half value is
    /// a float value), for float16 weights in ONNX and Core ML files.
    /// Subnormals, infinities and NaN (with its payload) are kept.
    public init(halfBits bits: UInt16) {
        let sign: UInt32 = UInt32(bits & 0x8000) << 16
        let exponent = UInt32(bits >> 10) & 0x1f
        let mantissa = UInt32(bits & 0x3ff)
        switch exponent {
        case 0:
            // Zero or subnormal: mantissa × 2^-24.
            let magnitude = Float(mantissa) * 0x1p-24
            self = sign != 0 ? -magnitude : magnitude
        case 0x1f:
            self = Float(bitPattern: sign | 0x7f80_0000 | mantissa << 13)
        default:
            self = Float(bitPattern: sign | (exponent + 112) << 23 | mantissa << 13)
        }
    }
}
