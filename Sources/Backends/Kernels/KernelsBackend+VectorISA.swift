import CFoveaKernels

extension KernelsBackend {
    /// The best vector ISA the C kernels have for this CPU (`avx512`, `avx2`),
    /// or `nil` where they run only their scalar C (every CPU without AVX2 +
    /// FMA, every non-x86 CPU today). A property of the hardware and the
    /// build: `FOVEA_ISA` does not change it. ``BackendRegistry`` asks it to
    /// put this backend or the portable one first.
    public static var vectorISA: String? {
        fovea_kernels_vector_isa().map { String(cString: $0) }
    }
}
