import FoveaSIMD
import FoveaSIMDAVX2
import FoveaSIMDAVX512

/// The AVX-512 and AVX2 builds of the SIMD backend's kernels, for programs
/// that build Fovea as the root package or by branch or revision (the
/// `fovea` CLI, benchmarks): these two modules are compiled with
/// `-target-cpu`, an unsafe flag, so the `Fovea` library product leaves them
/// out and its SIMD backend runs the `generic` kernels until they are
/// registered. The default `kernels` backend (C) needs no registration: it
/// picks its AVX variants at run time in every build.
public enum SIMDISAKernels {
    /// Registers the AVX-512 and AVX2 kernels with the SIMD backend; each runs
    /// only where the CPU supports it (``SIMDKernelISA/isSupported``). Call
    /// once at start-up, before preparing models; later calls change nothing.
    public static func register() {
        SIMDKernelISA.avx512.register(SIMDKernelFunctions(
            gemmTiles: { FoveaSIMDAVX512.gemmTiles(k: $0, a: $1, aPanelStride: $2, rowPanels: $3, rows: $4, b: $5, ldb: $6, bPanelStride: $7, columnPanels: $8, columns: $9, c: $10, ldc: $11, bias: $12, accumulate: $13, activation: $14, p0: $15, p1: $16) },
            depthwisePlane: { FoveaSIMDAVX512.depthwisePlane(x: $0, inputHeight: $1, inputWidth: $2, kernel: $3, kernelHeight: $4, kernelWidth: $5, strideHeight: $6, strideWidth: $7, dilationHeight: $8, dilationWidth: $9, padTop: $10, padLeft: $11, y: $12, outputHeight: $13, outputWidth: $14, bias: $15, activation: $16, p0: $17, p1: $18) }))
        SIMDKernelISA.avx2.register(SIMDKernelFunctions(
            gemmTiles: { FoveaSIMDAVX2.gemmTiles(k: $0, a: $1, aPanelStride: $2, rowPanels: $3, rows: $4, b: $5, ldb: $6, bPanelStride: $7, columnPanels: $8, columns: $9, c: $10, ldc: $11, bias: $12, accumulate: $13, activation: $14, p0: $15, p1: $16) },
            depthwisePlane: { FoveaSIMDAVX2.depthwisePlane(x: $0, inputHeight: $1, inputWidth: $2, kernel: $3, kernelHeight: $4, kernelWidth: $5, strideHeight: $6, strideWidth: $7, dilationHeight: $8, dilationWidth: $9, padTop: $10, padLeft: $11, y: $12, outputHeight: $13, outputWidth: $14, bias: $15, activation: $16, p0: $17, p1: $18) }))
    }
}
