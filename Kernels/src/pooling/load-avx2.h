/*
 * AVX2 helpers for the pooling variants: strided row loads. Include only from
 * *-avx2.c files: everything here is compiled for AVX2 + FMA and must only run
 * after dispatch chose it.
 */
#ifndef FOVEA_KERNELS_LOAD_AVX2_H
#define FOVEA_KERNELS_LOAD_AVX2_H

#include "pooling.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>


/* Lane indices i*stride, for gathers with a stride of 3 or more. */
static inline FOVEA_TARGET_AVX2 __m256i fovea_stride_index_avx2(int64_t stride) {
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    return _mm256_mullo_epi32(lane, _mm256_set1_epi32((int)stride));
}

/* Lane i gets base[i*stride], i < 8; reads exactly those elements (the last one is base[7*stride]). */
static inline FOVEA_TARGET_AVX2 __m256 fovea_load_strided_avx2(const float *base, int64_t stride, __m256i gather_index) {
    if (stride == 1) return _mm256_loadu_ps(base);
    if (stride == 2) {
        /* base[0..7] and base[8..14] (a masked load: base[15] may lie past the buffer), keep the evens. */
        const __m256i first_seven = _mm256_setr_epi32(-1, -1, -1, -1, -1, -1, -1, 0);
        const __m256 low = _mm256_loadu_ps(base);
        const __m256 high = _mm256_maskload_ps(base + 8, first_seven);
        /* Per 128-bit half: [l0 l2 h0 h2 | l4 l6 h4 h6]; then reorder the 64-bit pairs to l0 l2 l4 l6 h0 h2 h4 h6. */
        const __m256 mixed = _mm256_shuffle_ps(low, high, _MM_SHUFFLE(2, 0, 2, 0));
        return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(mixed), _MM_SHUFFLE(3, 1, 2, 0)));
    }
    return _mm256_i32gather_ps(base, gather_index, 4);
}

#endif /* FOVEA_HAVE_X86_VARIANTS */

#endif
