/*
 * Internal: the AVX2 epilogue of the int8 tiles: 16 int32 sums of one output
 * row (two vectors of 8 columns) requantized as fovea_qs8_requantize does
 * (MLAS's order: + bias, to float, × scale, clamp, cvtps2dq, + zero point)
 * and stored as nr <= 16 bytes.
 */
#ifndef FOVEA_KERNELS_QS8_REQUANT_AVX2_H
#define FOVEA_KERNELS_QS8_REQUANT_AVX2_H

#include <immintrin.h>
#include <string.h>

#include "gemm-qs8.h"

FOVEA_TARGET_AVX2 static inline __m256i qs8_requant8_avx2(__m256i acc, __m256i bias, __m256 scale, __m256 lo,
                                                          __m256 hi, __m256i zero_point) {
    __m256 v = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_add_epi32(acc, bias)), scale);
    v = _mm256_min_ps(_mm256_max_ps(v, lo), hi);
    return _mm256_add_epi32(_mm256_cvtps_epi32(v), zero_point);
}

FOVEA_TARGET_AVX2 static inline void qs8_store_row16_avx2(__m256i acc0, __m256i acc1, size_t row,
                                                          const fovea_qs8_requant *rq, uint8_t *c, size_t nr) {
    const __m256i bias = _mm256_set1_epi32(rq->bias[row]);
    const __m256 scale = _mm256_set1_ps(rq->scale[row]);
    const __m256 lo = _mm256_set1_ps(rq->min_less_zero_point), hi = _mm256_set1_ps(rq->max_less_zero_point);
    const __m256i zero_point = _mm256_set1_epi32(rq->zero_point);
    const __m256i q0 = qs8_requant8_avx2(acc0, bias, scale, lo, hi, zero_point);
    const __m256i q1 = qs8_requant8_avx2(acc1, bias, scale, lo, hi, zero_point);
    /* packs works per 128-bit lane: [q0 0-3, q1 0-3, q0 4-7, q1 4-7] -> columns in order. */
    const __m256i words = _mm256_permute4x64_epi64(_mm256_packs_epi32(q0, q1), 0xD8);
    __m128i bytes = _mm_packus_epi16(_mm256_castsi256_si128(words), _mm256_extracti128_si256(words, 1));
    bytes = _mm_xor_si128(bytes, _mm_set1_epi8((char)rq->output_xor));
    if (nr == 16) {
        _mm_storeu_si128((__m128i *)c, bytes);
    } else {
        uint8_t row_bytes[16];
        _mm_storeu_si128((__m128i *)row_bytes, bytes);
        memcpy(c, row_bytes, nr);
    }
}

#endif
