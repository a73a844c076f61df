import FoveaSIMD
import FoveaSIMDISAKernels

/// The variants the tests run each kernel on: every one this CPU supports,
/// with the AVX-512 and AVX2 builds registered first (they are not part of
/// FoveaSIMD itself; see SIMDISAKernels).
func supportedISAs() -> [SIMDKernelISA] {
    SIMDISAKernels.register()
    return SIMDKernelISA.allCases.filter(\.isSupported)
}
