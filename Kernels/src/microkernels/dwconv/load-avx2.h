/*
 * AVX2 helpers for the depthwise variants: lane masks (the vector epilogue
 * is the shared ../gemm/epilogue-avx2.h). Include only from *-avx2.c files: everything here is compiled for
 * AVX2 + FMA and must only run after dispatch chose it.
 */
#ifndef FOVEA_KERNELS_DEPTHWISE_LOAD_AVX2_H
#define FOVEA_KERNELS_DEPTHWISE_LOAD_AVX2_H

#include "dwconv.h"
#include "../gemm/epilogue-avx2.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

/* All-ones in lanes [lo, hi), 0 <= lo <= hi <= 8 (for maskload / maskstore / gathers). */
static inline FOVEA_TARGET_AVX2 __m256i fovea_dw_mask_avx2(fovea_dw_lanes lanes) {
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i below_hi = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)lanes.hi), lane);
    const __m256i from_lo = _mm256_cmpgt_epi32(lane, _mm256_set1_epi32((int)lanes.lo - 1));
    return _mm256_and_si256(below_hi, from_lo);
}

/* Lanes l < count whose input column start + l*stride lies in [0, width). */
static inline FOVEA_TARGET_AVX2 __m256i fovea_dw_row_mask_avx2(int64_t start, int64_t stride, int64_t width,
                                                               int64_t count) {
    return fovea_dw_mask_avx2(fovea_dw_valid_lanes(start, stride, width, count));
}

/*
 * Stores the low `count` lanes (1..8) of v: a plain store for 8, else 4-, 2- and
 * 1-float pieces (vmaskmovps stores are slow on AMD processors).
 */
static inline FOVEA_TARGET_AVX2 void fovea_dw_store_avx2(float *dst, __m256 v, int64_t count) {
    if (count >= 8) {
        _mm256_storeu_ps(dst, v);
        return;
    }
    __m128 part = _mm256_castps256_ps128(v);
    if (count & 4) {
        _mm_storeu_ps(dst, part);
        part = _mm256_extractf128_ps(v, 1);
        dst += 4;
    }
    if (count & 2) {
        _mm_storel_pi((__m64 *)dst, part);
        part = _mm_movehl_ps(part, part);
        dst += 2;
    }
    if (count & 1) _mm_store_ss(dst, part);
}

#endif /* FOVEA_HAVE_X86_VARIANTS */

#endif
