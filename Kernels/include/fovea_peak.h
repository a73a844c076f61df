/*
 * fovea_peak.h — probes of the CPU's floating-point peak and of memory
 * bandwidth (part of CFoveaKernels).
 *
 * Benchmarks report "% of peak" against what this machine measurably does, not
 * against a spec sheet: the same AVX-512 instruction stream runs at about 117
 * GFLOP/s per core on Zen 4 (two 256-bit halves) and about 235 on Zen 5 (full
 * width). The probe runs long chains of independent fused multiply-adds on the
 * calling thread and times them.
 */
#ifndef FOVEA_PEAK_H
#define FOVEA_PEAK_H

#include <stddef.h>

#include "fovea_threadpool.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Measures single-thread float32 multiply-add throughput of one ISA variant,
 * in GFLOP/s (a multiply-add counts as 2 floating-point operations per lane).
 *
 * `isa` is an ISA name as in fovea_kernels_set_isa: "avx512" (16-lane FMA on
 * zmm registers), "avx2" (8-lane FMA on ymm registers) or "scalar" (one lane:
 * a multiply and an add, which is what the scalar kernels have on baseline
 * x86-64). Each variant keeps enough independent accumulator chains (16 zmm,
 * 12 ymm, 14 xmm) to hide the instruction latency, so the result is the
 * throughput limit of the execution units. On x86-64 the loops are inline
 * assembly, so the figure does not depend on the library's optimization level;
 * elsewhere only "scalar" is measured (in C) and the others give 0.
 *
 * `seconds` is how long to measure (0.05 when not positive or not a number;
 * at most 10). The probe times many short blocks and returns the fastest, so a
 * block interrupted by another process does not lower the result. It runs on
 * the calling thread only; a machine's peak with N threads is at most N times
 * this (one thread per core).
 *
 * Returns 0 when `isa` is NULL, unknown, or not supported by this CPU and build
 * (see fovea_kernels_isa_supported). It ignores fovea_kernels_set_isa and
 * FOVEA_ISA: the caller names the ISA to measure.
 */
double fovea_fma_peak_gflops(const char *isa, double seconds);

/**
 * Measures single-thread bf16 dot-product throughput in GFLOP/s: 16
 * independent chains of AVX512_BF16's vdpbf16ps on zmm registers, each adding
 * 32 bf16 products into 16 float32 lanes (a product and its add count as 2
 * operations, as for fovea_fma_peak_gflops, so 64 per instruction). The
 * bf16 convolution kernels are measured against this. Same timing as
 * fovea_fma_peak_gflops (`seconds`, fastest block, calling thread only).
 * Returns 0 where the CPU or build has no AVX512_BF16.
 */
double fovea_bf16_dot_peak_gflops(double seconds);

/**
 * Measures memory bandwidth in GB/s (10⁹ bytes per second): the fastest of
 * repeated copies of `bytes` (0: 64 MB, larger than the last-level cache of
 * current CPUs; clamped to 4 KB ... 4 GB) from one buffer to another with
 * libc's memcpy, split over up to `threadpool->threads` threads of the
 * caller's pool (NULL, 0 or 1: the calling thread). A copy counts 2 × `bytes` moved (read and write), as STREAM's
 * Copy does. Memory-bound layers (depthwise convolutions, pooling,
 * elementwise operators) are measured against this, not against the FMA peak.
 *
 * `seconds` is how long to measure (0.2 when not positive or not a number;
 * at most 10; at least three copies). Returns 0 if the buffers cannot be
 * allocated.
 */
double fovea_memory_bandwidth_gbps(size_t bytes, const fovea_threadpool *threadpool, double seconds);

#ifdef __cplusplus
}
#endif

#endif /* FOVEA_PEAK_H */
