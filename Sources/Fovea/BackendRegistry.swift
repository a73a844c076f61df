import FoveaCore
import FoveaSIMD
import FoveaBLAS
import FoveaKernels

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

    /// Fovea's built-in backends, fastest first: `kernels` (C, per-ISA kernels:
    /// 0.73× and 0.75× onnxruntime's SqueezeNet 1.1 latency at 1 and 2 threads
    /// on Zen 4 (2026-11-24), against 1.31× and 1.29× for `simd` when last measured), then `simd` for what the kernels
    /// do not run, then `blas`, which runs only Conv, Gemm and MatMul (force it
    /// with `blas,simd`).
    public static let standard = BackendRegistry.standard(winograd: .measured)

    /// The built-in backends, with the kernels backend's 3×3 convolutions on
    /// `winograd` (`.off` for the GEMM everywhere, `.forced(.winogradF4)`, ...).
    public static func standard(winograd: WinogradPolicy) -> BackendRegistry {
        BackendRegistry([KernelsBackend(winograd: winograd), SIMDBackend(), BLASBackend()])
    }

    /// What OpenBLAS says of itself (version, build, the kernels it chose for
    /// this CPU or that `OPENBLAS_CORETYPE` forced), for benchmark reports.
    public static var openBLASConfiguration: String { BLASBackend.configuration }

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
