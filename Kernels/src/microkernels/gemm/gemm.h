/*
 * Internal: the register-blocked SGEMM microkernels and their panel layouts,
 * shared by every GEMM-shaped kernel (1×1 and im2col convolution, Winograd's
 * batched tile products, fully connected layers).
 *
 *  - A (weights) is packed once into row panels of MR rows: panel i holds, for
 *    each k, the MR values A[i·MR + r, k] (zeros past the last row). A k-range
 *    of a panel is contiguous: panel + k0·MR.
 *  - B (activations) is packed per block into column panels of NR columns:
 *    for each k of the block, the NR values B[k, j·NR + c] (zeros past N).
 *  - A microkernel computes one MR×NR tile over a k-range and stores its
 *    mr×nr valid part into C (row stride ldc), adding C's old values when
 *    `accumulate` is set, then bias (per row, when not NULL), then the
 *    epilogue (when not NULL): pass bias on the first k-block and the
 *    epilogue on the last.
 */
#ifndef FOVEA_KERNELS_GEMM_H
#define FOVEA_KERNELS_GEMM_H

#include "fovea_kernels.h"
#include "../../runtime/runtime.h"

#include <math.h>
#include <stddef.h>

/* The fused activation as the microkernels apply it: leaky slope, then clamp. */
typedef struct fovea_epilogue {
    float lo;    /* -INFINITY for none */
    float hi;    /* +INFINITY for none */
    float alpha; /* negative slope, when leaky */
    int leaky;
    int relu;    /* NaN becomes lo (0), as the Relu operator; otherwise NaN stays NaN */
} fovea_epilogue;

/* The epilogue of a public activation (NULL or NONE: clamps at ±infinity, no slope). */
static inline fovea_epilogue fovea_epilogue_of(const fovea_activation *activation) {
    fovea_epilogue e = {-INFINITY, INFINITY, 0.0f, 0, 0};
    if (activation == NULL) return e;
    switch (activation->kind) {
    case FOVEA_ACTIVATION_RELU: e.lo = 0.0f; e.relu = 1; break;
    case FOVEA_ACTIVATION_CLIP: e.lo = activation->min; e.hi = activation->max; break;
    case FOVEA_ACTIVATION_LEAKY_RELU: e.alpha = activation->alpha; e.leaky = 1; break;
    case FOVEA_ACTIVATION_NONE: break;
    }
    return e;
}

/*
 * One value through the epilogue (scalar code and tails). NaN stays NaN,
 * except through ReLU (x > 0 ? x : 0), which gives 0.
 */
static inline float fovea_epilogue_apply(const fovea_epilogue *e, float v) {
    if (e->leaky && v < 0.0f) v *= e->alpha;
    if (e->relu && !(v > 0.0f)) return 0.0f;
    if (v < e->lo) v = e->lo;
    if (v > e->hi) v = e->hi;
    return v;
}

/*
 * Vector versions for the AVX2 / AVX-512 variants: microkernels/gemm/epilogue-avx2.h
 * and epilogue-avx512.h (fovea_epilogue_avx2 / fovea_epilogue_avx512).
 */

typedef void (*fovea_gemm_ukernel_fn)(size_t mr, size_t nr, size_t kc, const float *a, const float *b, float *c,
                                      size_t ldc, const float *bias, int accumulate, const fovea_epilogue *epilogue);

/*
 * The same product reading B in place: row k of the tile's B at b + k·ldb,
 * nr_full columns each (a full NR, so it may read a whole NR-wide row: only
 * for panels that lie inside B). Used where packing B would cost more than
 * it saves (1×1 convolutions with few output channels). It prefetches B rows
 * ahead, running on into the next column panel (b + NR): the caller's next
 * tile is the panel to the right.
 */
typedef void (*fovea_gemm_ukernel_strided_fn)(size_t mr, size_t kc, const float *a, const float *b, size_t ldb,
                                              float *c, size_t ldc, const float *bias, int accumulate,
                                              const fovea_epilogue *epilogue);

/*
 * A tile of at most nr columns reading B rows `ldb` floats apart (mr, nr
 * ragged as for fovea_gemm_ukernel_fn): a narrow kernel on part of a wider panel.
 */
typedef void (*fovea_gemm_ukernel_ldb_fn)(size_t mr, size_t nr, size_t kc, const float *a, const float *b, size_t ldb,
                                          float *c, size_t ldc, const float *bias, int accumulate,
                                          const fovea_epilogue *epilogue);

/*
 * The product of fovea_gemm_ukernel_fn that also prefetches, while it runs,
 * `prefetch_lines` cache lines from `prefetch` into L2, one per k for the
 * first prefetch_lines k (none: NULL, 0): the caller's next A panel, so that
 * it streams in while this tile computes instead of in a burst of prefetches
 * the core waits on.
 */
typedef void (*fovea_gemm_ukernel_prefetch_fn)(size_t mr, size_t nr, size_t kc, const float *a, const float *b,
                                               float *c, size_t ldc, const float *bias, int accumulate,
                                               const fovea_epilogue *epilogue, const float *prefetch,
                                               size_t prefetch_lines);

/*
 * The transposed tile (pixels as rows, output channels as lanes): mr ≤ 8
 * pixels × nr ≤ 32 channels. Pixel r of reduction index k at a[k·lda + r];
 * b is a row panel of 32 packed by fovea_gemm_pack_a; channel j of pixel r
 * stored at c[j·ldc + r]; bias per channel. While it runs, it prefetches
 * `prefetch_lines` cache lines from `prefetch` (one per k, into L2): the
 * caller's next weight panel, so that panel's first tile does not wait on
 * memory (none: NULL, 0).
 */
typedef void (*fovea_gemm_ukernel_transposed_fn)(size_t mr, size_t nr, size_t kc, const float *a, size_t lda,
                                                 const float *b, float *c, size_t ldc, const float *bias,
                                                 int accumulate, const fovea_epilogue *epilogue,
                                                 const float *prefetch, size_t prefetch_lines);

#define FOVEA_DECLARE_GEMM(name)                                                                                  \
    void name(size_t mr, size_t nr, size_t kc, const float *a, const float *b, float *c, size_t ldc,              \
              const float *bias, int accumulate, const fovea_epilogue *epilogue);                                 \
    void name##_strided(size_t mr, size_t kc, const float *a, const float *b, size_t ldb, float *c, size_t ldc,   \
                        const float *bias, int accumulate, const fovea_epilogue *epilogue);
FOVEA_DECLARE_GEMM(fovea_f32_gemm_4x8__scalar)
#if FOVEA_HAVE_X86_VARIANTS
FOVEA_DECLARE_GEMM(fovea_f32_gemm_6x16__avx2)
FOVEA_DECLARE_GEMM(fovea_f32_gemm_8x32__avx512)
FOVEA_DECLARE_GEMM(fovea_f32_gemm_8x16__avx512)
void fovea_f32_gemm_8x32__avx512_prefetch(size_t mr, size_t nr, size_t kc, const float *a, const float *b, float *c,
                                          size_t ldc, const float *bias, int accumulate, const fovea_epilogue *epilogue,
                                          const float *prefetch, size_t prefetch_lines);
void fovea_f32_gemm_8x16__avx512_prefetch(size_t mr, size_t nr, size_t kc, const float *a, const float *b, float *c,
                                          size_t ldc, const float *bias, int accumulate, const fovea_epilogue *epilogue,
                                          const float *prefetch, size_t prefetch_lines);
void fovea_f32_gemm_8x16__avx512_ldb(size_t mr, size_t nr, size_t kc, const float *a, const float *b, size_t ldb,
                                     float *c, size_t ldc, const float *bias, int accumulate,
                                     const fovea_epilogue *epilogue);
/* The transposed tile: fovea_gemm_ukernel_transposed_fn. */
void fovea_f32_gemm_t8x32__avx512(size_t mr, size_t nr, size_t kc, const float *a, size_t lda, const float *b,
                                  float *c, size_t ldc, const float *bias, int accumulate,
                                  const fovea_epilogue *epilogue, const float *prefetch, size_t prefetch_lines);
#endif
#if FOVEA_HAVE_NEON_VARIANTS
FOVEA_DECLARE_GEMM(fovea_f32_gemm_8x12__neon)
#endif
#undef FOVEA_DECLARE_GEMM

/* Floats of m×k packed into panels of mr rows. */
static inline size_t fovea_gemm_packed_a_floats(size_t mr, size_t m, size_t k) {
    return (m + mr - 1) / mr * mr * k;
}

/*
 * Packs A (m×k, element (i, p) at a[i·row_stride + p·column_stride]) into
 * row panels of mr rows.
 */
void fovea_gemm_pack_a(size_t mr, size_t m, size_t k, const float *a, size_t row_stride, size_t column_stride,
                       float *packed);

/*
 * Packs the block B[k0 ..< k0+kc, n0 ..< n0+nc] of a row-major B (row stride
 * ldb; b points at element (k0, n0)) into ceil(nc/nr) column panels of kc×nr.
 */
void fovea_gemm_pack_b(size_t nr, size_t kc, size_t nc, const float *b, size_t ldb, float *packed);

#endif
