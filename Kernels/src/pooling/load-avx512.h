/*
 * AVX-512 helpers for the pooling variants: strided row loads and lane masks.
 * Include only from *-avx512.c files: everything here is compiled for AVX-512F
 * and must only run after dispatch chose it.
 */
#ifndef FOVEA_KERNELS_LOAD_AVX512_H
#define FOVEA_KERNELS_LOAD_AVX512_H

#include "pooling.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>


/* The mask of the lowest `count` lanes (0 <= count <= 16). */
static inline FOVEA_TARGET_AVX512 __mmask16 fovea_low_lanes_avx512(int64_t count) {
    return count <= 0 ? (__mmask16)0 : count >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << count) - 1u);
}

/* Lane indices i*stride, for gathers with a stride of 3 or more. */
static inline FOVEA_TARGET_AVX512 __m512i fovea_stride_index_avx512(int64_t stride) {
    const __m512i lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    return _mm512_mullo_epi32(lane, _mm512_set1_epi32((int)stride));
}

/*
 * Lane i < lanes gets base[i*stride]; the other lanes get 0. Reads only the
 * elements of the active lanes (masked loads do not fault), so it never runs
 * past the end of a row even at the end of the buffer.
 */
static inline FOVEA_TARGET_AVX512 __m512 fovea_load_strided_avx512(const float *base, int64_t stride,
                                                                   __m512i gather_index, int64_t lanes) {
    if (stride == 1) return _mm512_maskz_loadu_ps(fovea_low_lanes_avx512(lanes), base);
    if (stride == 2) {
        /* Lanes read base[0], base[2], ..., base[2*lanes-2]: load two vectors and keep the even elements. */
        const __m512i evens = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
        const __m512 low = _mm512_maskz_loadu_ps(fovea_low_lanes_avx512(2 * lanes - 1), base);
        const __m512 high = lanes > 8 ? _mm512_maskz_loadu_ps(fovea_low_lanes_avx512(2 * lanes - 17), base + 16)
                                      : _mm512_setzero_ps();
        return _mm512_permutex2var_ps(low, evens, high);
    }
    return _mm512_mask_i32gather_ps(_mm512_setzero_ps(), fovea_low_lanes_avx512(lanes), gather_index, base, 4);
}

#endif /* FOVEA_HAVE_X86_VARIANTS */

#endif
