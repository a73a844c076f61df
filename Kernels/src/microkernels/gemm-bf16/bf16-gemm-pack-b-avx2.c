/*
 * An fp32 B panel to bf16 pairs on AVX2 (gemm-bf16.h): the AVX-512 packer's
 * integer rounding on 8 lanes, so that B has the same bits as the scalar
 * packer. Without it the portable packer's per-value conversion cost more
 * than the products on thin layers (MobileNetV2's 144→24 projection ran at
 * a twelfth of the fp32 speed).
 */
#include "gemm-bf16.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

/* convert.h's rule on 8 fp32 lanes: the bf16 bits in each lane's upper half (lower half garbage). */
static inline FOVEA_TARGET_AVX2 __m256i round_upper_avx2(__m256 v) {
    const __m256i bits = _mm256_castps_si256(v);
    const __m256i odd = _mm256_and_si256(_mm256_srli_epi32(bits, 16), _mm256_set1_epi32(1));
    const __m256i rounded = _mm256_add_epi32(bits, _mm256_add_epi32(_mm256_set1_epi32(0x7FFF), odd));
    /* |bits| fits in 31 bits, so the signed compare is the unsigned one. */
    const __m256i magnitude = _mm256_and_si256(bits, _mm256_set1_epi32(0x7FFFFFFF));
    const __m256i nan = _mm256_cmpgt_epi32(magnitude, _mm256_set1_epi32(0x7F800000));
    const __m256i quiet = _mm256_or_si256(bits, _mm256_set1_epi32(0x00400000));
    return _mm256_blendv_epi8(rounded, quiet, nan);
}

FOVEA_TARGET_AVX2 void fovea_bf16_gemm_pack_b__avx2(size_t nr, size_t kc, size_t kc_padded, const float *b,
                                                    size_t ldb, uint16_t *packed) {
    if (nr % 8 != 0) {
        fovea_bf16_gemm_pack_b(nr, kc, kc_padded, b, ldb, packed);
        return;
    }
    const __m256i high = _mm256_set1_epi32((int)0xFFFF0000u);
    for (size_t p = 0; p < kc_padded; p += 2) {
        for (size_t j = 0; j < nr; j += 8) {
            const __m256 even = p < kc ? _mm256_loadu_ps(b + p * ldb + j) : _mm256_setzero_ps();
            const __m256 odd = p + 1 < kc ? _mm256_loadu_ps(b + (p + 1) * ldb + j) : _mm256_setzero_ps();
            /* Lane j: B[p][j]'s bf16 in the low half, B[p+1][j]'s in the high half. */
            const __m256i pair = _mm256_or_si256(_mm256_srli_epi32(round_upper_avx2(even), 16),
                                                 _mm256_and_si256(round_upper_avx2(odd), high));
            _mm256_storeu_si256((__m256i *)(void *)(packed + p * nr + 2 * j), pair);
        }
    }
}
#endif
