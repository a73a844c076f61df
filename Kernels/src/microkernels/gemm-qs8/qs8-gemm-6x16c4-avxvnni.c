/*
 * int8 GEMM tile for AVX-VNNI (256-bit vpdpbusd, VEX-encoded): 6 rows × 16
 * columns, k in groups of 4. Each vpdpbusd adds, per int32 lane, four u8 × s8
 * products to the accumulator exactly (no saturation: vpdpbusd, not
 * vpdpbusds). B holds 4 k-bytes per column, A a broadcast of 4 int8 weights.
 */
#include "gemm-qs8.h"

#if FOVEA_HAVE_X86_VARIANTS
#include "requant-avx2.h"

FOVEA_TARGET_AVXVNNI void fovea_qs8_gemm_6x16c4__avxvnni(size_t mr, size_t nr, size_t k, const void *a,
                                                         const uint8_t *b, const fovea_qs8_requant *rq, uint8_t *c,
                                                         size_t ldc, const struct fovea_qs8_gemm_config *config) {
    (void)config;
    const int8_t *w = (const int8_t *)a;
    __m256i acc[6][2];
    for (int m = 0; m < 6; m++) acc[m][0] = acc[m][1] = _mm256_setzero_si256();
    for (size_t g = 0; g < k / 4; g++) {
        const __m256i x0 = _mm256_loadu_si256((const __m256i *)b);
        const __m256i x1 = _mm256_loadu_si256((const __m256i *)(b + 32));
        for (int m = 0; m < 6; m++) {
            int32_t quad;
            memcpy(&quad, w + 4 * m, sizeof quad);
            const __m256i wm = _mm256_set1_epi32(quad);
            acc[m][0] = _mm256_dpbusd_avx_epi32(acc[m][0], x0, wm);
            acc[m][1] = _mm256_dpbusd_avx_epi32(acc[m][1], x1, wm);
        }
        b += 64;
        w += 24;
    }
    for (size_t m = 0; m < mr; m++) qs8_store_row16_avx2(acc[m][0], acc[m][1], m, rq, c + m * ldc, nr);
}
#endif
