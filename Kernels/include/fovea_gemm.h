/*
 * fovea_gemm.h — the SGEMM microkernels alone (part of fovea_kernels.h).
 *
 * Every GEMM-shaped kernel (fovea_conv2d_f32, fovea_winograd_conv2d_f32) runs
 * on one register-blocked microkernel per ISA: it computes one MR×NR tile of
 * C = A·B over a k-range kc from two packed panels. These entry points run that
 * microkernel alone, for benchmarks (GFLOP/s of the inner loop, without packing,
 * blocking or threads) and tests. The convolutions do not need them.
 *
 * The panel layouts (what fovea_conv2d_pack and the per-block packing produce):
 *
 *  - A panel: MR rows of A over kc: for each k in 0 ..< kc, the MR values
 *    A[0, k], A[1, k], ..., A[MR−1, k]. So a_panel[k·MR + r] = A[r, k]
 *    (kc·MR floats).
 *  - B panel: NR columns of B over kc: for each k, the NR values B[k, 0] ...
 *    B[k, NR−1]. So b_panel[k·NR + j] = B[k, j] (kc·NR floats).
 *  - C: MR rows of NR floats, row r at c + r·ldc (ldc ≥ NR).
 *
 * `isa` names a microkernel: "scalar" (f32_gemm_4x8_scalar), "avx2"
 * (f32_gemm_6x16_avx2), "avx512" (f32_gemm_8x32_avx512) or "neon"
 * (f32_gemm_8x12_neon, AArch64), or is NULL for the
 * ISA kernel calls use now (fovea_kernels_isa_name()). These entry points
 * ignore fovea_kernels_set_isa and FOVEA_ISA otherwise: the caller names the
 * microkernel. They run on the calling thread and are reentrant.
 *
 * Statuses, checked in this order: FOVEA_STATUS_UNKNOWN_ISA (not one of the
 * names above, "auto" included), FOVEA_STATUS_UNSUPPORTED_ISA (this CPU or build
 * lacks it, see fovea_kernels_isa_supported), FOVEA_STATUS_NULL_POINTER,
 * FOVEA_STATUS_INVALID_PARAMETER, FOVEA_STATUS_TOO_LARGE. On any status other
 * than FOVEA_STATUS_OK nothing has been written.
 */
#ifndef FOVEA_GEMM_H
#define FOVEA_GEMM_H

#include "fovea_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The tile of an ISA's microkernel: MR rows (*mr) by NR columns (*nr): 4×8
 * (scalar), 6×16 (avx2), 8×32 (avx512). A multiply-add of the whole tile over
 * kc is 2·MR·NR·kc floating-point operations. Writes *mr and *nr (both must be
 * non-NULL) only on success.
 */
fovea_status fovea_gemm_microkernel_tile(const char *isa, size_t *mr, size_t *nr);

/**
 * The name of an ISA's microkernel, such as "f32_gemm_8x32_avx512" (the name
 * fovea_conv2d_kernel_name reports for weights packed for that ISA); NULL if
 * `isa` is unknown or not supported here. A static string.
 */
const char *fovea_gemm_microkernel_name(const char *isa);

/**
 * Runs one full MR×NR tile of the ISA's microkernel: C = A·B over kc, from
 * `a_panel` (kc·MR floats) and `b_panel` (kc·NR floats) in the layouts above,
 * into the MR rows of NR floats of `c` (row stride `ldc` ≥ NR; floats between
 * NR and ldc are not written). C is overwritten (no accumulation, bias or
 * activation). Each output is its kc products summed in k order, in float
 * (fused multiply-adds in the avx2 and avx512 microkernels).
 *
 * kc must be 1 ... FOVEA_KERNELS_MAX_EXTENT and ldc at least NR, else
 * FOVEA_STATUS_INVALID_PARAMETER; FOVEA_STATUS_TOO_LARGE when the byte size of
 * a panel or of C does not fit in the address space. The panels and C must not
 * overlap.
 */
fovea_status fovea_gemm_microkernel_f32(const char *isa, size_t kc, const float *a_panel, const float *b_panel,
                                        float *c, size_t ldc);

/**
 * For benchmarks: fovea_gemm_microkernel_f32 `repeats` times on the same
 * panels (C holds the result of one run), with the arguments checked and the
 * ISA looked up once, so that timing a short tile times the microkernel and not
 * the call. `repeats` 0 checks the arguments and writes nothing. Statuses as
 * fovea_gemm_microkernel_f32.
 */
fovea_status fovea_gemm_microkernel_repeat_f32(const char *isa, size_t kc, const float *a_panel,
                                               const float *b_panel, float *c, size_t ldc, size_t repeats);

#ifdef __cplusplus
}
#endif

#endif /* FOVEA_GEMM_H */
