/*
 * AVX-512 helpers for the pooling variants: strided row loads, stride-2 rows
 * and lane masks. Include only from *-avx512.c files: everything here is
 * compiled for AVX-512F and must only run after dispatch chose it.
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
 * past the end of a row even at the end of the buffer. Stride 2 does not come
 * here: the variants read it with the stride-2 rows below.
 */
static inline FOVEA_TARGET_AVX512 __m512 fovea_load_strided_avx512(const float *base, int64_t stride,
                                                                   __m512i gather_index, int64_t lanes) {
    if (stride == 1) return _mm512_maskz_loadu_ps(fovea_low_lanes_avx512(lanes), base);
    return _mm512_mask_i32gather_ps(_mm512_setzero_ps(), fovea_low_lanes_avx512(lanes), gather_index, base, 4);
}

/* ---- Stride-2 rows without gathers ------------------------------------------
 *
 * Sixteen stride-2 outputs read, for the column tap at offset `off` from their
 * window start `row`, row[off], row[off+2], ..., row[off+30]. Two contiguous
 * loads of row[b .. b+31] (b = off rounded down to even) and one two-source
 * permute give the even or odd elements; taps 2m and 2m+1 share the loads.
 * The 3-wide window (3×3 stride 2) takes its third tap, the evens shifted by
 * one output, from the first with valignd: 2 loads per window row, not 4.
 */

/* row[0 .. count) as two vectors (row[0..15], row[16..31]); nothing past row[count-1] is read. */
typedef struct fovea_pair_avx512 {
    __m512 lo, hi;
} fovea_pair_avx512;

static inline FOVEA_TARGET_AVX512 fovea_pair_avx512 fovea_load_pair_avx512(const float *row, int64_t count) {
    fovea_pair_avx512 pair;
    pair.lo = _mm512_maskz_loadu_ps(fovea_low_lanes_avx512(count), row);
    pair.hi = _mm512_maskz_loadu_ps(fovea_low_lanes_avx512(count - 16), row + 16);
    return pair;
}

/* Elements 0, 2, ..., 30 (odd = 0) or 1, 3, ..., 31 (odd = 1) of a pair. */
static inline FOVEA_TARGET_AVX512 __m512 fovea_s2_lanes_avx512(fovea_pair_avx512 pair, int odd) {
    const __m512i evens = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    const __m512i odds = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
    return _mm512_permutex2var_ps(pair.lo, odd ? odds : evens, pair.hi);
}

/* The column taps of one window row for `lanes` stride-2 outputs, kernel width 1-3, dilation 1. */
typedef struct fovea_s2_row_avx512 {
    __m512 tap[3];
} fovea_s2_row_avx512;

static inline FOVEA_TARGET_AVX512 __attribute__((always_inline)) fovea_s2_row_avx512
fovea_load_s2_row_avx512(const float *row, int64_t lanes, int64_t kernel_width) {
    fovea_s2_row_avx512 t;
    /* Taps 0..kernel_width-1 of output lanes-1 end at row[2*lanes - 3 + kernel_width]. */
    const int64_t count = 2 * lanes - 2 + kernel_width;
    const fovea_pair_avx512 pair = fovea_load_pair_avx512(row, count < 32 ? count : 32);
    t.tap[0] = fovea_s2_lanes_avx512(pair, 0);
    t.tap[1] = kernel_width >= 2 ? fovea_s2_lanes_avx512(pair, 1) : t.tap[0];
    if (kernel_width == 3) {
        /* Lane i: row[2i+2] = tap 0 of lane i+1; the last of 16 lanes takes row[32], read only then. */
        const __m512 after = lanes == 16 ? _mm512_set1_ps(row[32]) : _mm512_setzero_ps();
        t.tap[2] = _mm512_castsi512_ps(_mm512_alignr_epi32(_mm512_castps_si512(after), _mm512_castps_si512(t.tap[0]), 1));
    } else {
        t.tap[2] = t.tap[0];
    }
    return t;
}

#endif /* FOVEA_HAVE_X86_VARIANTS */

#endif
