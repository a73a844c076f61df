/*
 * An fp32 B panel to bf16 pairs on AVX-512F (gemm-bf16.h): convert.h's
 * rounding in integer arithmetic, two k rows at a time, so that B has the same
 * bits as the scalar packer. Each block is converted once for all its row
 * panels; at a few cycles per value in scalar code that costs about what the
 * products of a 64-channel layer cost at vdpbf16ps's rate.
 */
#include "gemm-bf16.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

/* convert.h's rule on 16 fp32 lanes: the bf16 bits in each lane's upper half (lower half garbage). */
static inline FOVEA_TARGET_AVX512 __m512i round_upper(__m512 v) {
    const __m512i bits = _mm512_castps_si512(v);
    const __m512i odd = _mm512_and_si512(_mm512_srli_epi32(bits, 16), _mm512_set1_epi32(1));
    const __m512i rounded = _mm512_add_epi32(bits, _mm512_add_epi32(_mm512_set1_epi32(0x7FFF), odd));
    const __m512i magnitude = _mm512_and_si512(bits, _mm512_set1_epi32(0x7FFFFFFF));
    const __mmask16 nan = _mm512_cmpgt_epu32_mask(magnitude, _mm512_set1_epi32(0x7F800000));
    return _mm512_mask_or_epi32(rounded, nan, bits, _mm512_set1_epi32(0x00400000));
}

FOVEA_TARGET_AVX512 void fovea_bf16_gemm_pack_b__avx512(size_t nr, size_t kc, size_t kc_padded, const float *b,
                                                        size_t ldb, uint16_t *packed) {
    if (nr % 16 != 0) {
        fovea_bf16_gemm_pack_b(nr, kc, kc_padded, b, ldb, packed);
        return;
    }
    const __m512i high = _mm512_set1_epi32((int)0xFFFF0000u);
    for (size_t p = 0; p < kc_padded; p += 2) {
        for (size_t j = 0; j < nr; j += 16) {
            const __m512 even = p < kc ? _mm512_loadu_ps(b + p * ldb + j) : _mm512_setzero_ps();
            const __m512 odd = p + 1 < kc ? _mm512_loadu_ps(b + (p + 1) * ldb + j) : _mm512_setzero_ps();
            /* Lane j: B[p][j]'s bf16 in the low half, B[p+1][j]'s in the high half. */
            const __m512i pair = _mm512_or_si512(_mm512_srli_epi32(round_upper(even), 16),
                                                 _mm512_and_si512(round_upper(odd), high));
            _mm512_storeu_si512(packed + p * nr + 2 * j, pair);
        }
    }
}
#endif
