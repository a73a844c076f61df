/*
 * AVX2 helpers for the pooling variants: strided row loads and stride-2 rows.
 * Include only from *-avx2.c files: everything here is compiled for AVX2 + FMA
 * and must only run after dispatch chose it.
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

/*
 * Lane i gets base[i*stride], i < 8; reads exactly those elements (the last one
 * is base[7*stride]). Stride 2 does not come here: the variants read it with
 * the stride-2 rows below.
 */
static inline FOVEA_TARGET_AVX2 __m256 fovea_load_strided_avx2(const float *base, int64_t stride, __m256i gather_index) {
    if (stride == 1) return _mm256_loadu_ps(base);
    return _mm256_i32gather_ps(base, gather_index, 4);
}

/* ---- Stride-2 rows without gathers ------------------------------------------
 *
 * Eight stride-2 outputs read, for the column tap at offset `off` from their
 * window start `row`, row[off], row[off+2], ..., row[off+14]. Two contiguous
 * loads of row[b .. b+15] (b = off rounded down to even) and one in-lane
 * shuffle (vshufps; AVX2 has no cheap two-source permute) give the even or odd
 * elements in a swizzled lane order (outputs 0 1 4 5 | 2 3 6 7). Lane-wise
 * folds do not care about the order, so a window is folded in that order and
 * put back in place once (fovea_s2_unswizzle_avx2) before the store. Taps 2m
 * and 2m+1 share the loads.
 */

/* The mask of the lowest `count` lanes (0 <= count <= 8), for maskload / maskstore. */
static inline FOVEA_TARGET_AVX2 __m256i fovea_low_lanes_avx2(int64_t count) {
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(count < 0 ? 0 : count > 8 ? 8 : count)), lane);
}

/* row[0 .. min(count, 8)); lanes past count are 0 and nothing past row[count-1] is read. */
static inline FOVEA_TARGET_AVX2 __m256 fovea_load_count_avx2(const float *row, int64_t count) {
    if (count >= 8) return _mm256_loadu_ps(row);
    if (count <= 0) return _mm256_setzero_ps();
    return _mm256_maskload_ps(row, fovea_low_lanes_avx2(count));
}

typedef struct fovea_pair_avx2 {
    __m256 lo, hi;
} fovea_pair_avx2;

/* row[0 .. count) as row[0..7], row[8..15]; nothing past row[count-1] is read. */
static inline FOVEA_TARGET_AVX2 fovea_pair_avx2 fovea_load_pair_avx2(const float *row, int64_t count) {
    fovea_pair_avx2 pair;
    pair.lo = fovea_load_count_avx2(row, count);
    pair.hi = fovea_load_count_avx2(row + 8, count - 8);
    return pair;
}

/* Elements 0, 2, ..., 14 (odd = 0) or 1, 3, ..., 15 (odd = 1) of a pair, swizzled. */
static inline FOVEA_TARGET_AVX2 __m256 fovea_s2_lanes_avx2(fovea_pair_avx2 pair, int odd) {
    return odd ? _mm256_shuffle_ps(pair.lo, pair.hi, _MM_SHUFFLE(3, 1, 3, 1))
               : _mm256_shuffle_ps(pair.lo, pair.hi, _MM_SHUFFLE(2, 0, 2, 0));
}

/* The column taps of one window row for `lanes` stride-2 outputs (swizzled), kernel width 1-3, dilation 1. */
typedef struct fovea_s2_row_avx2 {
    __m256 tap[3];
} fovea_s2_row_avx2;

static inline FOVEA_TARGET_AVX2 __attribute__((always_inline)) fovea_s2_row_avx2
fovea_load_s2_row_avx2(const float *row, int64_t lanes, int64_t kernel_width) {
    fovea_s2_row_avx2 t;
    const fovea_pair_avx2 pair = fovea_load_pair_avx2(row, 2 * lanes - (kernel_width == 1));
    t.tap[0] = fovea_s2_lanes_avx2(pair, 0);
    t.tap[1] = kernel_width >= 2 ? fovea_s2_lanes_avx2(pair, 1) : t.tap[0];
    /* The third tap: the evens of row[2 .. 2*lanes], loaded again (an in-register shift costs more here). */
    t.tap[2] = kernel_width == 3 ? fovea_s2_lanes_avx2(fovea_load_pair_avx2(row + 2, 2 * lanes - 1), 0) : t.tap[0];
    return t;
}

/* Swizzled order (outputs 0 1 4 5 | 2 3 6 7) back to 0 ..< 8. */
static inline FOVEA_TARGET_AVX2 __m256 fovea_s2_unswizzle_avx2(__m256 v) {
    return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(v), _MM_SHUFFLE(3, 1, 2, 0)));
}

#endif /* FOVEA_HAVE_X86_VARIANTS */

#endif
