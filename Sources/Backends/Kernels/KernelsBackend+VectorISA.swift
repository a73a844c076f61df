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

extension KernelsBackend {
    /// The bfloat16 matrix hardware the kernels can use on this CPU: `amx`
    /// (AMX-BF16 tiles, with the kernel's permission), `avx512bf16`
    /// (`vdpbf16ps`), or `nil` where bfloat16 steps run a portable kernel with
    /// the same numerics and no speed gain. A property of the hardware and
    /// the build, like ``vectorISA``.
    public static var bf16Hardware: String? {
        ["amx", "avx512bf16"].first { fovea_kernels_isa_supported($0) != 0 }
    }
}
