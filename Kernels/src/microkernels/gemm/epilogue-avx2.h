/*
 * The fused epilogue on 8 floats, for AVX2 variants (include only from
 * *-avx2.c files). Same results as fovea_epilogue_apply in gemm.h.
 */
#ifndef FOVEA_KERNELS_EPILOGUE_AVX2_H
#define FOVEA_KERNELS_EPILOGUE_AVX2_H

#include "gemm.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

static inline FOVEA_TARGET_AVX2 __m256 fovea_epilogue_avx2(__m256 v, const fovea_epilogue *e) {
    if (e->leaky) {
        const __m256 negative = _mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_LT_OQ);
        v = _mm256_blendv_ps(v, _mm256_mul_ps(v, _mm256_set1_ps(e->alpha)), negative);
    }
    /* MAXPS returns its second operand when either is NaN: (v, lo) maps NaN to lo (ReLU), (lo, v) keeps it. */
    const __m256 lo = _mm256_set1_ps(e->lo);
    v = e->relu ? _mm256_max_ps(v, lo) : _mm256_max_ps(lo, v);
    return _mm256_min_ps(_mm256_set1_ps(e->hi), v);
}

/* Lane mask for the first `count` (0..8) of 8 floats. */
static inline FOVEA_TARGET_AVX2 __m256i fovea_avx2_lanes(size_t count) {
    const __m256i index = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(count > 8 ? 8 : count)), index);
}

/* An accumulator's old C (masked load: rare, k-blocks only), bias and epilogue, in the tiles' order. */
static inline FOVEA_TARGET_AVX2 __m256 fovea_avx2_finish(__m256 v, const float *old, __m256i mask, int accumulate,
                                                         const float *bias, const fovea_epilogue *e) {
    if (accumulate) v = _mm256_add_ps(v, _mm256_maskload_ps(old, mask));
    if (bias != NULL) v = _mm256_add_ps(v, _mm256_set1_ps(*bias));
    if (e != NULL) v = fovea_epilogue_avx2(v, e);
    return v;
}
#endif
#endif
