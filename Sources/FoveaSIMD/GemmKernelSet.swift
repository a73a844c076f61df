import Foundation
import FoveaCore
import FoveaSIMDAVX2
import FoveaSIMDAVX512
import FoveaSIMDGeneric

/// The instruction sets the SIMD backend's GEMM and depthwise kernels are
/// compiled for. Each is a separate module built from the same source
/// (Sources/FoveaSIMDKernels) with its own `-target-cpu`; one is chosen at
/// run time from what the CPU supports.
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

    /// Whether this CPU (and OS) can run the variant.
    public var isSupported: Bool {
        switch self {
        case .generic: return true
        case .avx2: return CPUFeatures.current.avx2 && CPUFeatures.current.fma
        case .avx512: return CPUFeatures.current.avx512f && CPUFeatures.current.fma
        }
    }

    /// The best supported variant, unless the environment variable
    /// `FOVEA_SIMD_ISA` names another supported one.
    public static let preferred: SIMDKernelISA = {
        if let name = ProcessInfo.processInfo.environment["FOVEA_SIMD_ISA"],
           let forced = SIMDKernelISA(rawValue: name.lowercased()), forced.isSupported {
            return forced
        }
        return allCases.first { $0.isSupported } ?? .generic
    }()
}

/// What the CPU supports, from /proc/cpuinfo on Linux x86-64 (whose flags the
/// kernel clears when the OS does not save the wider registers). Elsewhere
/// nothing beyond the baseline is assumed.
struct CPUFeatures: Sendable {
    var avx2 = false, fma = false, avx512f = false

    static let current: CPUFeatures = {
        var features = CPUFeatures()
        #if os(Linux) && arch(x86_64)
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
              let flagsLine = text.split(separator: "\n").first(where: { $0.hasPrefix("flags") }) else {
            return features
        }
        let flags = Set(flagsLine.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == ":" }).map(String.init))
        features.avx2 = flags.contains("avx2")
        features.fma = flags.contains("fma")
        features.avx512f = flags.contains("avx512f")
        #endif
        return features
    }()
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

    init(_ isa: SIMDKernelISA) {
        self.isa = isa
        switch isa {
        case .avx512:
            gemmTiles = { FoveaSIMDAVX512.gemmTiles(k: $0, a: $1, aPanelStride: $2, rowPanels: $3, rows: $4, b: $5, ldb: $6, bPanelStride: $7, columnPanels: $8, columns: $9, c: $10, ldc: $11, bias: $12, accumulate: $13, activation: $14.code, p0: $14.p0, p1: $14.p1) }
            depthwisePlane = { FoveaSIMDAVX512.depthwisePlane(x: $0, inputHeight: $1, inputWidth: $2, kernel: $3, kernelHeight: $4, kernelWidth: $5, strideHeight: $6, strideWidth: $7, dilationHeight: $8, dilationWidth: $9, padTop: $10, padLeft: $11, y: $12, outputHeight: $13, outputWidth: $14, bias: $15, activation: $16.code, p0: $16.p0, p1: $16.p1) }
        case .avx2:
            gemmTiles = { FoveaSIMDAVX2.gemmTiles(k: $0, a: $1, aPanelStride: $2, rowPanels: $3, rows: $4, b: $5, ldb: $6, bPanelStride: $7, columnPanels: $8, columns: $9, c: $10, ldc: $11, bias: $12, accumulate: $13, activation: $14.code, p0: $14.p0, p1: $14.p1) }
            depthwisePlane = { FoveaSIMDAVX2.depthwisePlane(x: $0, inputHeight: $1, inputWidth: $2, kernel: $3, kernelHeight: $4, kernelWidth: $5, strideHeight: $6, strideWidth: $7, dilationHeight: $8, dilationWidth: $9, padTop: $10, padLeft: $11, y: $12, outputHeight: $13, outputWidth: $14, bias: $15, activation: $16.code, p0: $16.p0, p1: $16.p1) }
        case .generic:
            gemmTiles = { FoveaSIMDGeneric.gemmTiles(k: $0, a: $1, aPanelStride: $2, rowPanels: $3, rows: $4, b: $5, ldb: $6, bPanelStride: $7, columnPanels: $8, columns: $9, c: $10, ldc: $11, bias: $12, accumulate: $13, activation: $14.code, p0: $14.p0, p1: $14.p1) }
            depthwisePlane = { FoveaSIMDGeneric.depthwisePlane(x: $0, inputHeight: $1, inputWidth: $2, kernel: $3, kernelHeight: $4, kernelWidth: $5, strideHeight: $6, strideWidth: $7, dilationHeight: $8, dilationWidth: $9, padTop: $10, padLeft: $11, y: $12, outputHeight: $13, outputWidth: $14, bias: $15, activation: $16.code, p0: $16.p0, p1: $16.p1) }
        }
    }

    /// The kernels steps use unless a test forces another ISA.
    static let preferred = GemmKernelSet(SIMDKernelISA.preferred)

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
        }
    }
}
