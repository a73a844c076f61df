import CFoveaKernels
import FoveaCore
import FoveaSIMDGeneric
import Foundation

/// The instruction sets the SIMD backend's GEMM and depthwise kernels are
/// compiled for. Each is a separate module built from the same source
/// (Sources/FoveaSIMDKernels) with its own `-target-cpu`; one is chosen at
/// run time from what the CPU supports. `generic` is part of FoveaSIMD; the
/// AVX-512 and AVX2 builds need `-target-cpu`, an unsafe flag, so they live
/// in the `FoveaSIMDISAKernels` module, which registers them
/// (``register(_:)``; the `fovea` CLI does at start-up).
public enum SIMDKernelISA: String, Sendable, CaseIterable, CustomStringConvertible {
    /// AVX-512F + FMA: 8x32 tiles of sixteen SIMD16 accumulators.
    case avx512
    /// AVX2 + FMA: 8x32 tiles as 4x16 sub-tiles of SIMD8 accumulators.
    case avx2
    /// Baseline CPU (no FMA): the same sub-tiles with separate multiply and add.
    case generic

    public var description: String { rawValue }

    /// Forces the variant that steps prepared inside `SIMDKernelISA.$forced.withValue(...)`
    /// use (tests and benchmarks); `nil` means ``preferred``. Preparing throws
    /// `.unsupported` if the CPU cannot run the forced variant.
    @TaskLocal public static var forced: SIMDKernelISA?

    /// The name the C kernels library (CFoveaKernels) and the `FOVEA_ISA`
    /// environment variable use for this variant: `generic` is `scalar`.
    public var kernelsName: String {
        switch self {
        case .avx512: return "avx512"
        case .avx2: return "avx2"
        case .generic: return "scalar"
        }
    }

    /// The variant for a C kernels ISA name (`scalar`, `avx2`, `avx512`).
    public init?(kernelsName: String) {
        guard let isa = Self.allCases.first(where: { $0.kernelsName == kernelsName }) else { return nil }
        self = isa
    }

    /// Whether this variant can run: its kernels are compiled in (always for
    /// `generic`; the others once registered, see ``isRegistered``) and this
    /// CPU (and OS) can run them, as the C kernels library detects it
    /// (`fovea_kernels_isa_supported`: `__builtin_cpu_supports` AVX2 + FMA,
    /// AVX-512F + AVX2 + FMA, which also checks that the OS saves the wide
    /// registers). Off Linux x86-64 the AVX modules are not compiled for their
    /// CPUs (the `-target-cpu` flags are Linux-only, see README.md), so only
    /// `generic` counts as supported there.
    public var isSupported: Bool {
        if self == .generic { return true }
        #if os(Linux) && arch(x86_64)
        return isRegistered && fovea_kernels_isa_supported(kernelsName) != 0
        #else
        return false
        #endif
    }

    /// Whether this variant's kernels are compiled in: always for `generic`,
    /// else once ``register(_:)`` gave them (`SIMDISAKernels.register()` in
    /// the `FoveaSIMDISAKernels` module).
    public var isRegistered: Bool { self == .generic || SIMDKernelRegistry.shared.functions(for: self) != nil }

    /// Makes `functions` this variant's kernels (the AVX-512 or AVX2 build of
    /// Sources/FoveaSIMDKernels). Steps prepared afterwards may use them; a
    /// second registration replaces the first. `generic` is built in and
    /// cannot be replaced.
    public func register(_ functions: SIMDKernelFunctions) {
        guard self != .generic else { return }
        SIMDKernelRegistry.shared.register(functions, for: self)
    }

    /// The C kernels library's default choice (`fovea_kernels_default_isa_name`):
    /// the best variant the CPU supports, unless the environment variable
    /// `FOVEA_ISA=scalar|avx2|avx512` names another supported one. One
    /// detection and one variable rule both the SIMD backend and the C
    /// kernels. (`fovea_kernels_set_isa` does not change it; use ``forced``.)
    /// Only registered variants count (see ``isSupported``), so this is
    /// `generic` until `SIMDISAKernels.register()` runs.
    public static var preferred: SIMDKernelISA {
        let name = String(cString: fovea_kernels_default_isa_name())
        if let isa = SIMDKernelISA(kernelsName: name), isa.isSupported { return isa }
        return allCases.first { $0.isSupported } ?? .generic
    }
}

/// One ISA build of the SIMD backend's two kernels, as the per-ISA modules
/// export them (Sources/FoveaSIMDKernels: `gemmTiles` and `depthwisePlane`,
/// activation as a code and two parameters).
public struct SIMDKernelFunctions: Sendable {
    /// `gemmTiles(k:a:aPanelStride:rowPanels:rows:b:ldb:bPanelStride:columnPanels:columns:c:ldc:bias:accumulate:activation:p0:p1:)`.
    public typealias GemmTiles = @Sendable (
        _ k: Int, _ a: UnsafePointer<Float>, _ aPanelStride: Int, _ rowPanels: Int, _ rows: Int,
        _ b: UnsafePointer<Float>, _ ldb: Int, _ bPanelStride: Int, _ columnPanels: Int, _ columns: Int,
        _ c: UnsafeMutablePointer<Float>, _ ldc: Int, _ bias: UnsafePointer<Float>?, _ accumulate: Bool,
        _ activation: Int, _ p0: Float, _ p1: Float) -> Void
    /// `depthwisePlane(x:inputHeight:inputWidth:kernel:kernelHeight:kernelWidth:strideHeight:strideWidth:dilationHeight:dilationWidth:padTop:padLeft:y:outputHeight:outputWidth:bias:activation:p0:p1:)`.
    public typealias DepthwisePlane = @Sendable (
        _ x: UnsafePointer<Float>, _ inputHeight: Int, _ inputWidth: Int,
        _ kernel: UnsafePointer<Float>, _ kernelHeight: Int, _ kernelWidth: Int,
        _ strideHeight: Int, _ strideWidth: Int, _ dilationHeight: Int, _ dilationWidth: Int,
        _ padTop: Int, _ padLeft: Int,
        _ y: UnsafeMutablePointer<Float>, _ outputHeight: Int, _ outputWidth: Int, _ bias: Float,
        _ activation: Int, _ p0: Float, _ p1: Float) -> Void

    /// The GEMM register-tile kernel.
    public let gemmTiles: GemmTiles
    /// The depthwise convolution of one plane.
    public let depthwisePlane: DepthwisePlane

    /// Bundles one module's two kernels.
    public init(gemmTiles: @escaping GemmTiles, depthwisePlane: @escaping DepthwisePlane) {
        self.gemmTiles = gemmTiles
        self.depthwisePlane = depthwisePlane
    }
}

/// The registered AVX-512 / AVX2 kernels (registered once at start-up, read when steps are prepared).
final class SIMDKernelRegistry: @unchecked Sendable {
    static let shared = SIMDKernelRegistry()
    private let lock = NSLock()
    private var registered: [SIMDKernelISA: SIMDKernelFunctions] = [:]

    func register(_ functions: SIMDKernelFunctions, for isa: SIMDKernelISA) {
        lock.lock()
        defer { lock.unlock() }
        registered[isa] = functions
    }

    func functions(for isa: SIMDKernelISA) -> SIMDKernelFunctions? {
        lock.lock()
        defer { lock.unlock() }
        return registered[isa]
    }
}

/// The kernels of one ISA, as function values the prepared steps call.
struct GemmKernelSet: Sendable {
    typealias GemmTiles = @Sendable (
        _ k: Int, _ a: UnsafePointer<Float>, _ aPanelStride: Int, _ rowPanels: Int, _ rows: Int,
        _ b: UnsafePointer<Float>, _ ldb: Int, _ bPanelStride: Int, _ columnPanels: Int, _ columns: Int,
        _ c: UnsafeMutablePointer<Float>, _ ldc: Int, _ bias: UnsafePointer<Float>?, _ accumulate: Bool,
        _ activation: KernelActivation) -> Void
    typealias DepthwisePlane = @Sendable (
        _ x: UnsafePointer<Float>, _ inputHeight: Int, _ inputWidth: Int,
        _ kernel: UnsafePointer<Float>, _ kernelHeight: Int, _ kernelWidth: Int,
        _ strideHeight: Int, _ strideWidth: Int, _ dilationHeight: Int, _ dilationWidth: Int,
        _ padTop: Int, _ padLeft: Int,
        _ y: UnsafeMutablePointer<Float>, _ outputHeight: Int, _ outputWidth: Int, _ bias: Float,
        _ activation: KernelActivation) -> Void

    let isa: SIMDKernelISA
    let gemmTiles: GemmTiles
    let depthwisePlane: DepthwisePlane

    /// Register tile shape shared by every variant (the packed layouts depend on it).
    static let tileRows = 8
    static let tileColumns = 32

    /// The kernels of `isa`: FoveaSIMDGeneric's for `generic` (and for a
    /// variant nobody registered, which ``current()`` never asks for).
    init(_ isa: SIMDKernelISA) {
        if isa != .generic, let f = SIMDKernelRegistry.shared.functions(for: isa) {
            self.isa = isa
            gemmTiles = { f.gemmTiles($0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14.code, $14.p0, $14.p1) }
            depthwisePlane = { f.depthwisePlane($0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16.code, $16.p0, $16.p1) }
            return
        }
        self.isa = .generic
        gemmTiles = { FoveaSIMDGeneric.gemmTiles(k: $0, a: $1, aPanelStride: $2, rowPanels: $3, rows: $4, b: $5, ldb: $6, bPanelStride: $7, columnPanels: $8, columns: $9, c: $10, ldc: $11, bias: $12, accumulate: $13, activation: $14.code, p0: $14.p0, p1: $14.p1) }
        depthwisePlane = { FoveaSIMDGeneric.depthwisePlane(x: $0, inputHeight: $1, inputWidth: $2, kernel: $3, kernelHeight: $4, kernelWidth: $5, strideHeight: $6, strideWidth: $7, dilationHeight: $8, dilationWidth: $9, padTop: $10, padLeft: $11, y: $12, outputHeight: $13, outputWidth: $14, bias: $15, activation: $16.code, p0: $16.p0, p1: $16.p1) }
    }

    /// The kernels steps use unless a test forces another ISA (computed per
    /// step prepared, since registration may come after the first use).
    static var preferred: GemmKernelSet { GemmKernelSet(SIMDKernelISA.preferred) }

    /// The forced variant if any (and supported by this CPU), else `preferred`.
    static func current() throws -> GemmKernelSet {
        guard let isa = SIMDKernelISA.forced else { return preferred }
        guard isa.isSupported else {
            throw FoveaError(.unsupported, "the \(isa) kernels cannot run on this CPU")
        }
        return GemmKernelSet(isa)
    }
}

/// A fused activation as the kernels take it: a code and up to two parameters
/// (see Sources/FoveaSIMDKernels/FusedActivationKernel.swift).
struct KernelActivation: Sendable, Equatable {
    var code: Int
    var p0: Float
    var p1: Float

    static let none = KernelActivation(code: 0, p0: 0, p1: 0)

    init(code: Int, p0: Float, p1: Float) {
        self.code = code
        self.p0 = p0
        self.p1 = p1
    }

    init(_ activation: FusedActivation?) {
        switch activation {
        case nil: self = .none
        case .relu: self.init(code: 1, p0: 0, p1: 0)
        case .leakyRelu(let alpha): self.init(code: 2, p0: alpha, p1: 0)
        case .clip(let lower, let upper): self.init(code: 3, p0: lower ?? -.infinity, p1: upper ?? .infinity)
        // The others run after the GEMM of each output block (UnaryKernelFunction).
        default: self = .none
        }
    }
}
