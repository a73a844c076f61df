/* The stride-2 gather of the three taps of a 3×3 stride-2 pad-1 input row at once, AVX-512. */
#include "im2col.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

/*
 * The three taps of a 3×3 stride-2 pad-1 row at once: dst_kw[q] = row[start + 2q + kw − 1]
 * (zero outside [0, width)). One pair of loads serves all three: the even
 * elements are tap 1, the odd ones tap 2, and the odd ones moved up a lane
 * behind the element before them tap 0, where three separate gathers loaded the row thrice.
 */
FOVEA_TARGET_AVX512 void fovea_f32_gather_stride2_taps3__avx512(float *dst0, float *dst1, float *dst2, const float *row,
                                                            size_t width, size_t start, size_t count) {
    const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    const __m512i odd = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
    for (size_t q = 0; q < count; q += 16) {
        const size_t base = start + 2 * q, left = count - q < 16 ? count - q : 16;
        const size_t have = width > base ? width - base : 0; /* row elements from base on */
        const __mmask16 low_mask = have >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << have) - 1u);
        const size_t high_have = have > 16 ? have - 16 : 0;
        const __mmask16 high_mask = high_have >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << high_have) - 1u);
        /* Masked-off lanes are never read; past the row the address is the row's own. */
        const __m512 low = _mm512_maskz_loadu_ps(low_mask, have > 0 ? row + base : row);
        const __m512 high = _mm512_maskz_loadu_ps(high_mask, high_have > 0 ? row + base + 16 : row);
        const __m512 tap1 = _mm512_permutex2var_ps(low, even, high), tap2 = _mm512_permutex2var_ps(low, odd, high);
        const float before = base >= 1 && base - 1 < width ? row[base - 1] : 0.0f;
        const __m512 tap0 = _mm512_castsi512_ps(
            _mm512_alignr_epi32(_mm512_castps_si512(tap2), _mm512_castps_si512(_mm512_set1_ps(before)), 15));
        const __mmask16 store = (__mmask16)((1u << left) - 1u);
        _mm512_mask_storeu_ps(dst0 + q, store, tap0);
        _mm512_mask_storeu_ps(dst1 + q, store, tap1);
        _mm512_mask_storeu_ps(dst2 + q, store, tap2);
    }
}
#endif
