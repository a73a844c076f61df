import FoveaCore
import FoveaPortableBackend
import FoveaBLASBackend
import FoveaKernelsBackend

/// The backends a model can run on, in the default order of preference
/// (fastest first). The reference backend is always available and always last.
///
/// Adding a backend is adding its target and one entry in ``standard``; the
/// planner never names a backend. Applications can also build a registry
/// with backends of their own.
public struct BackendRegistry: Sendable {
    /// The registered backends, fastest first, the reference backend last.
    public let backends: [any Backend]

    /// A registry of `backends` in preference order; the reference backend is
    /// appended if it is missing.
    public init(_ backends: [any Backend]) {
        let others = backends.filter { $0.name != ReferenceBackend.name }
        self.backends = others + [ReferenceBackend()]
    }

    /// Fovea's built-in backends, fastest first for this CPU (see
    /// ``standard(winograd:)``), then `blas`, which runs only Conv, Gemm and
    /// MatMul (force it with `blas,simd`).
    public static let standard = BackendRegistry.standard(winograd: .measured)

    /// The built-in backends, with the kernels backend's 3×3 convolutions on
    /// `winograd` (`.off` for the GEMM everywhere, `.forced(.winogradF4)`, ...).
    ///
    /// Where the C kernels have vector code for this CPU
    /// (`KernelsBackend.vectorISA`: x86-64 with AVX2 + FMA), `kernels` comes
    /// first and `simd` runs what it does not. Elsewhere (arm64, where NEON is
    /// the baseline Swift SIMD compiles to, and older x86) the C kernels are
    /// scalar, so the portable `simd` backend comes first and `kernels` runs
    /// what it does not.
    public static func standard(winograd: WinogradPolicy) -> BackendRegistry {
        let kernels = KernelsBackend(winograd: winograd)
        if KernelsBackend.vectorISA != nil {
            return BackendRegistry([kernels, SIMDBackend(), BLASBackend()])
        }
        return BackendRegistry([SIMDBackend(), kernels, BLASBackend()])
    }

    /// What OpenBLAS says of itself (version, build, the kernels it chose for
    /// this CPU or that `OPENBLAS_CORETYPE` forced), for benchmark reports.
    public static var openBLASConfiguration: String { BLASBackend.configuration }

    /// The bfloat16 hardware the `kernels` backend finds on this CPU for
    /// `Precision.bf16` plans: `amx`, `avx512bf16`, or `nil` when there is
    /// none (bf16 steps then run a portable kernel, slower than float32).
    public static var bf16Hardware: String? { KernelsBackend.bf16Hardware }

    /// The registered names, in preference order.
    public var names: [String] { backends.map(\.name) }

    /// The backends with these names, in the given order.
    ///
    /// - Throws: `.invalidArgument` naming an unknown backend and the known ones.
    public func backends(named names: [String]) throws -> [any Backend] {
        try names.map { name in
            guard let backend = backends.first(where: { $0.name == name }) else {
                throw FoveaError(.invalidArgument, "unknown backend '\(name)' (available: \(self.names.joined(separator: ", ")))")
            }
            return backend
        }
    }
}
