/*
 * int8 GEMM tile for AVX512-VNNI (512-bit vpdpbusd): 8 rows × 32 columns, k in
 * groups of 4. 16 accumulators, 2 B vectors (32 columns × 4 k-bytes), one
 * broadcast of 4 int8 weights per row. The epilogue is fovea_qs8_requantize's
 * arithmetic on 16 lanes; _mm512_cvtepi32_epi8 truncates, which is exact here
 * because the clamp already put every value in [0, 255].
 */
#include "gemm-qs8.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>
#include <string.h>

FOVEA_TARGET_AVX512VNNI static inline __m128i requant16(__m512i acc, __m512i bias, __m512 scale, __m512 lo, __m512 hi,
                                                        __m512i zero_point, __m128i flip) {
    __m512 v = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_add_epi32(acc, bias)), scale);
    v = _mm512_min_ps(_mm512_max_ps(v, lo), hi);
    const __m512i q = _mm512_add_epi32(_mm512_cvtps_epi32(v), zero_point);
    return _mm_xor_si128(_mm512_cvtepi32_epi8(q), flip);
}

FOVEA_TARGET_AVX512VNNI void fovea_qs8_gemm_8x32c4__avx512vnni(size_t mr, size_t nr, size_t k, const void *a,
                                                               const uint8_t *b, const fovea_qs8_requant *rq,
                                                               uint8_t *c, size_t ldc,
                                                               const struct fovea_qs8_gemm_config *config) {
    (void)config;
    const int8_t *w = (const int8_t *)a;
    __m512i acc[8][2];
    for (int m = 0; m < 8; m++) acc[m][0] = acc[m][1] = _mm512_setzero_si512();
    for (size_t g = 0; g < k / 4; g++) {
        const __m512i x0 = _mm512_loadu_si512((const void *)b);
        const __m512i x1 = _mm512_loadu_si512((const void *)(b + 64));
        for (int m = 0; m < 8; m++) {
            int32_t quad;
            memcpy(&quad, w + 4 * m, sizeof quad);
            const __m512i wm = _mm512_set1_epi32(quad);
            acc[m][0] = _mm512_dpbusd_epi32(acc[m][0], x0, wm);
            acc[m][1] = _mm512_dpbusd_epi32(acc[m][1], x1, wm);
        }
        b += 128;
        w += 32;
    }
    const __m512 lo = _mm512_set1_ps(rq->min_less_zero_point), hi = _mm512_set1_ps(rq->max_less_zero_point);
    const __m512i zero_point = _mm512_set1_epi32(rq->zero_point);
    const __m128i flip = _mm_set1_epi8((char)rq->output_xor);
    for (size_t m = 0; m < mr; m++) {
        const __m512i bias = _mm512_set1_epi32(rq->bias[m]);
        const __m512 scale = _mm512_set1_ps(rq->scale[m]);
        uint8_t row[32];
        _mm_storeu_si128((__m128i *)row, requant16(acc[m][0], bias, scale, lo, hi, zero_point, flip));
        _mm_storeu_si128((__m128i *)(row + 16), requant16(acc[m][1], bias, scale, lo, hi, zero_point, flip));
        memcpy(c + m * ldc, row, nr);
    }
}
#endif
