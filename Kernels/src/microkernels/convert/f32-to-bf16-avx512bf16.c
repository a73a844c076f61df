/*
 * fp32 -> bf16 with vcvtneps2bf16 (round to nearest even, NaN to quiet NaN,
 * as convert.h's rule) except for denormal inputs: the instruction treats
 * them as zero (Intel SDM: DAZ semantics, whatever MXCSR says), while the rule
 * rounds them to the nearest bf16 denormal. Blocks holding a denormal take
 * the integer rounding for those lanes, so the result matches the scalar
 * variant bit for bit (test_bf16_convert checks both on every pattern class).
 */
#include "convert.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

/* The rule on 16 lanes in integer arithmetic (for the denormal lanes only; they are never NaN). */
static inline FOVEA_TARGET_AVX512BF16 __m256i round_bits(__m512i bits) {
    const __m512i odd = _mm512_and_si512(_mm512_srli_epi32(bits, 16), _mm512_set1_epi32(1));
    const __m512i rounded = _mm512_add_epi32(bits, _mm512_add_epi32(_mm512_set1_epi32(0x7FFF), odd));
    return _mm512_cvtepi32_epi16(_mm512_srli_epi32(rounded, 16));
}

static inline FOVEA_TARGET_AVX512BF16 void convert16(const float *x, uint16_t *y, __mmask16 lanes) {
    const __m512 v = _mm512_maskz_loadu_ps(lanes, x);
    __m256i out = (__m256i)_mm512_cvtneps_pbh(v);
    const __m512i bits = _mm512_castps_si512(v);
    const __m512i magnitude = _mm512_and_si512(bits, _mm512_set1_epi32(0x7FFFFFFF));
    /* Denormal: 0 < |bits| < FLT_MIN's. */
    const __mmask16 denormal = _mm512_mask_cmplt_epu32_mask(_mm512_test_epi32_mask(magnitude, magnitude), magnitude,
                                                            _mm512_set1_epi32(0x00800000));
    if (denormal) out = _mm256_mask_blend_epi16(denormal, out, round_bits(bits));
    _mm256_mask_storeu_epi16(y, lanes, out);
}

FOVEA_TARGET_AVX512BF16 void fovea_f32_to_bf16__avx512bf16(const float *x, uint16_t *y, size_t n) {
    size_t i = 0;
    for (; i + 16 <= n; i += 16) convert16(x + i, y + i, 0xFFFF);
    if (i < n) convert16(x + i, y + i, (__mmask16)((1u << (n - i)) - 1u));
}
#endif
