/*
 * fovea_matmul.h — C = A·B (+ bias per column, then an activation) for
 * row-major matrices with many rows (part of fovea_kernels.h).
 *
 * The fully connected layers of transformers multiply a token matrix A
 * (m rows of k, row-major: any leading batch axes are more rows) by a constant
 * B (k×n). B is packed once (fovea_matmul_pack_b) into the SGEMM
 * microkernel's column panels; each run packs A block by block into row panels
 * and writes C row-major. The same entry point multiplies two activations
 * (attention's Q·Kᵀ and weights·V) after packing B per call.
 *
 * Packed B records the ISA it was packed for (fovea_kernels_isa_name() at
 * packing time) and its k and n; runs use that ISA's microkernel.
 */
#ifndef FOVEA_MATMUL_H
#define FOVEA_MATMUL_H

#include "fovea_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Floats of B (k×n) packed for the active ISA: a header then the panels; 0 if k or n is 0 or too large. */
size_t fovea_matmul_packed_b_floats(size_t k, size_t n);

/**
 * Packs B (k×n, element (p, j) at b[p·row_stride + j·column_stride], times
 * `scale`) into `packed` (`packed_floats` ≥ fovea_matmul_packed_b_floats(k, n)).
 * A transposed B is column_stride k, row_stride 1. Statuses: NULL_POINTER,
 * INVALID_PARAMETER (k or n 0 or above FOVEA_KERNELS_MAX_EXTENT, a zero
 * stride), BUFFER_TOO_SMALL.
 */
fovea_status fovea_matmul_pack_b(size_t k, size_t n, const float *b, size_t row_stride, size_t column_stride,
                                 float scale, float *packed, size_t packed_floats);

/**
 * fovea_matmul_packed_b_floats for B of a given precision (fovea_kernels.h):
 * FOVEA_PRECISION_BF16 holds B as bf16, for the active ISA's bf16 GEMM kernel
 * (about half the floats). 0 for an invalid precision.
 */
size_t fovea_matmul_packed_b_floats_precision(size_t k, size_t n, fovea_precision precision);

/**
 * fovea_matmul_pack_b at a precision: BF16 rounds scale·B to bfloat16
 * (fovea_bf16.h). fovea_matmul_f32 then rounds each A value to bf16,
 * multiplies bf16 by bf16 (exact in float32) and sums in float32 k-blocks of
 * 256, adding bias and activation in float32; A and C stay float32.
 * INVALID_PARAMETER also for a precision that is neither.
 */
fovea_status fovea_matmul_pack_b_precision(size_t k, size_t n, const float *b, size_t row_stride,
                                           size_t column_stride, float scale, fovea_precision precision,
                                           float *packed, size_t packed_floats);

/** Workspace floats a run of m rows over packed B (either precision) needs with up to `threads` threads. */
size_t fovea_matmul_workspace_floats(const float *packed_b, size_t m, size_t threads);

/**
 * Workspace floats for a B that is packed per run (two activations): room for
 * packed B (k×n) at the start, then the A blocks of a run of m rows on up to
 * `threads` threads, for whichever ISA is active then; 0 if a size is 0 or too
 * large.
 */
size_t fovea_matmul_workspace_bound_floats(size_t m, size_t k, size_t n, size_t threads);

/**
 * C (m×n, row r at c + r·ldc) = A (m×k, row r at a + r·lda) · B, plus
 * bias[j] on column j when bias is not NULL, then the activation (NULL:
 * none). Each output sums its k products in k-blocks of 256 (float, fused
 * multiply-adds on avx2/avx512). Runs on up to `threadpool->threads` threads
 * (NULL: the calling thread); `workspace` is sized for that count.
 * Statuses: NULL_POINTER, INVALID_PARAMETER (m 0, lda < k, ldc < n),
 * PACKING_MISMATCH (packed_b has no valid header), BUFFER_TOO_SMALL
 * (workspace). A and C must not overlap.
 */
fovea_status fovea_matmul_f32(size_t m, const float *a, size_t lda, const float *packed_b, const float *bias, float *c,
                              size_t ldc, const fovea_activation *activation, float *workspace,
                              size_t workspace_floats, const fovea_threadpool *threadpool);

#ifdef __cplusplus
}
#endif

#endif
