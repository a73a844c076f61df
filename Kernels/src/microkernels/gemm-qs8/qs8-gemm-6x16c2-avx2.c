/*
 * int8 GEMM tile for AVX2 without VNNI: 6 rows × 16 columns, k in pairs.
 * B bytes are zero-extended to int16 (vpmovzxbw) and multiplied by a
 * broadcast pair of int16 weights with vpmaddwd: x0·w0 + x1·w1 in int32,
 * exact for any u8 × s8 values. (vpmaddubsw would multiply u8 × s8 directly
 * but saturates each pair sum to int16: 255·127·2 = 64770 does not fit, which
 * is why onnxruntime keeps 7-bit weights, reduce_range, for that path.)
 * 12 accumulators, 2 B vectors, 1 broadcast: 15 of the 16 ymm registers.
 */
#include "gemm-qs8.h"

#if FOVEA_HAVE_X86_VARIANTS
#include "requant-avx2.h"

FOVEA_TARGET_AVX2 void fovea_qs8_gemm_6x16c2__avx2(size_t mr, size_t nr, size_t k, const void *a,
                                                   const uint8_t *b, const fovea_qs8_requant *rq, uint8_t *c,
                                                   size_t ldc, const struct fovea_qs8_gemm_config *config) {
    (void)config;
    const int16_t *w = (const int16_t *)a;
    __m256i acc[6][2];
    for (int m = 0; m < 6; m++) acc[m][0] = acc[m][1] = _mm256_setzero_si256();
    for (size_t g = 0; g < k / 2; g++) {
        const __m256i x0 = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)b));
        const __m256i x1 = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(b + 16)));
        for (int m = 0; m < 6; m++) {
            int32_t pair;
            memcpy(&pair, w + 2 * m, sizeof pair);
            const __m256i wm = _mm256_set1_epi32(pair);
            acc[m][0] = _mm256_add_epi32(acc[m][0], _mm256_madd_epi16(x0, wm));
            acc[m][1] = _mm256_add_epi32(acc[m][1], _mm256_madd_epi16(x1, wm));
        }
        b += 32;
        w += 12;
    }
    for (size_t m = 0; m < mr; m++) qs8_store_row16_avx2(acc[m][0], acc[m][1], m, rq, c + m * ldc, nr);
}
#endif
