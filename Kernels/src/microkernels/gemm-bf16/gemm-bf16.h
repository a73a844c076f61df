/*
 * Internal: the bf16 GEMM microkernels (bf16 operands, fp32 accumulation and
 * output) and their panel layouts. The same contract as the SGEMM microkernels
 * of microkernels/gemm/gemm.h, with k in steps of the config's k_align:
 *
 *  - A (weights) is packed once into row panels of MR rows, k padded with
 *    zeros to a multiple of k_align. Two layouts:
 *      pairs (scalar, avx512, avx512bf16; k_align 2): [k/2][MR][2], A[r][k] at
 *        panel[(k/2)·MR·2 + r·2 + k%2] (one 32-bit pair per row and k-pair,
 *        what vdpbf16ps broadcasts);
 *      k32 (amx; k_align 32): [k/32][MR][32], A[r][k] at
 *        panel[(k/32)·MR·32 + r·32 + k%32] (one AMX A-tile row per row).
 *    In both, a k-range starting at a multiple of k_align is contiguous at
 *    panel + k0·MR.
 *  - B (activations) is packed per block by the fp32 packers ([kc][NR] panels)
 *    and then converted to bf16 pairs: [kc_padded/2][NR][2], B[k][j] at
 *    b[(k/2)·NR·2 + j·2 + k%2] (an AMX B tile and vdpbf16ps's second operand).
 */
#ifndef FOVEA_KERNELS_GEMM_BF16_H
#define FOVEA_KERNELS_GEMM_BF16_H

#include "../gemm/gemm.h"
#include "../convert/convert.h"
#include "../../runtime/amx.h"

#include <stddef.h>
#include <stdint.h>

/*
 * C[mr×nr] (fp32, row stride ldc) = (accumulate ? C : 0) + A·B over kc (a
 * multiple of the config's k_align, zero-padded), then bias per row (if not
 * NULL), then the epilogue (if not NULL) — same contract as
 * fovea_gemm_ukernel_fn. a: one A panel in the ISA's own layout (see pack_a);
 * b: one B panel of NR columns in the pair layout [kc/2][NR][2].
 */
typedef void (*fovea_bf16_gemm_ukernel_fn)(size_t mr, size_t nr, size_t kc, const uint16_t *a, const uint16_t *b,
                                           float *c, size_t ldc, const float *bias, int accumulate,
                                           const fovea_epilogue *epilogue);

/*
 * Packs A (m×k fp32, element (i,p) at a[i·row_stride + p·column_stride])
 * rounded to bf16 into the ISA's panel layout, k padded with zeros to a
 * multiple of k_align.
 */
typedef void (*fovea_bf16_gemm_pack_a_fn)(size_t mr, size_t m, size_t k, const float *a, size_t row_stride,
                                          size_t column_stride, uint16_t *packed);

/*
 * Converts one fp32 B panel (kc rows of nr floats, row k at b + k·ldb: a
 * panel of the fp32 packers with ldb = nr, or the input planes of a 1×1
 * convolution read in place) to bf16 pairs [kc_padded/2][nr][2], rows
 * kc ..< kc_padded zero. The same bits on every variant (convert.h's rounding).
 */
typedef void (*fovea_bf16_gemm_pack_b_fn)(size_t nr, size_t kc, size_t kc_padded, const float *b, size_t ldb,
                                          uint16_t *packed);

void fovea_bf16_gemm_pack_a_pairs(size_t mr, size_t m, size_t k, const float *a, size_t row_stride,
                                  size_t column_stride, uint16_t *packed);
void fovea_bf16_gemm_pack_a_k32(size_t mr, size_t m, size_t k, const float *a, size_t row_stride,
                                size_t column_stride, uint16_t *packed);
void fovea_bf16_gemm_pack_b(size_t nr, size_t kc, size_t kc_padded, const float *b, size_t ldb, uint16_t *packed);

/* bf16 values of m×k packed in panels of mr rows, k padded to k_align. */
static inline size_t fovea_bf16_gemm_packed_a_values(size_t mr, size_t m, size_t k, size_t k_align) {
    return (m + mr - 1) / mr * mr * ((k + k_align - 1) / k_align * k_align);
}

void fovea_bf16_gemm_4x16__scalar(size_t mr, size_t nr, size_t kc, const uint16_t *a, const uint16_t *b, float *c,
                                  size_t ldc, const float *bias, int accumulate, const fovea_epilogue *epilogue);
#if FOVEA_HAVE_X86_VARIANTS
void fovea_bf16_gemm_6x16__avx2(size_t mr, size_t nr, size_t kc, const uint16_t *a, const uint16_t *b, float *c,
                                size_t ldc, const float *bias, int accumulate, const fovea_epilogue *epilogue);
void fovea_bf16_gemm_pack_b__avx2(size_t nr, size_t kc, size_t kc_padded, const float *b, size_t ldb,
                                  uint16_t *packed);
void fovea_bf16_gemm_pack_b__avx512(size_t nr, size_t kc, size_t kc_padded, const float *b, size_t ldb,
                                    uint16_t *packed);
void fovea_bf16_gemm_8x32__avx512(size_t mr, size_t nr, size_t kc, const uint16_t *a, const uint16_t *b, float *c,
                                  size_t ldc, const float *bias, int accumulate, const fovea_epilogue *epilogue);
void fovea_bf16_gemm_8x32__avx512bf16(size_t mr, size_t nr, size_t kc, const uint16_t *a, const uint16_t *b,
                                      float *c, size_t ldc, const float *bias, int accumulate,
                                      const fovea_epilogue *epilogue);
void fovea_bf16_gemm_12x32__avx512bf16(size_t mr, size_t nr, size_t kc, const uint16_t *a, const uint16_t *b,
                                       float *c, size_t ldc, const float *bias, int accumulate,
                                       const fovea_epilogue *epilogue);
#endif
/* The AMX tile (bf16-gemm-32x32-amx.c, k32 A panels, k_align 32): from the bf16-amx branch, whose runtime/amx.h defines FOVEA_HAVE_AMX_KERNEL. */
#if FOVEA_HAVE_X86_VARIANTS && defined(FOVEA_HAVE_AMX_KERNEL)
void fovea_bf16_gemm_32x32__amx(size_t mr, size_t nr, size_t kc, const uint16_t *a, const uint16_t *b, float *c,
                                size_t ldc, const float *bias, int accumulate, const fovea_epilogue *epilogue);
#endif

#endif
