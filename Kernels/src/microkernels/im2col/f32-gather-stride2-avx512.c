/*
 * The stride-2 gather of im2col rows (strided first convolutions such as
 * SqueezeNet's conv1): two masked loads and one two-source permute per 16
 * outputs instead of 16 scalar loads. Never reads past src[2·(count−1)].
 */
#include "im2col.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

FOVEA_TARGET_AVX512 void fovea_f32_gather_stride2__avx512(float *dst, const float *src, size_t count) {
    const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    size_t q = 0;
    for (; q + 16 <= count; q += 16) {
        /* Elements 2q ... 2q+30 are needed; 2q+31 may lie past the row's end: load 31. */
        const __m512 low = _mm512_loadu_ps(src + 2 * q);
        const __m512 high = _mm512_maskz_loadu_ps((__mmask16)0x7FFF, src + 2 * q + 16);
        _mm512_storeu_ps(dst + q, _mm512_permutex2var_ps(low, even, high));
    }
    if (q < count) {
        const size_t left = count - q, needed = 2 * left - 1; /* src[2q] ... src[2q + 2(left-1)] */
        const __mmask16 low_mask = needed >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << needed) - 1u);
        const __mmask16 high_mask = needed > 16 ? (__mmask16)((1u << (needed - 16)) - 1u) : 0;
        const __m512 low = _mm512_maskz_loadu_ps(low_mask, src + 2 * q);
        const __m512 high = _mm512_maskz_loadu_ps(high_mask, src + 2 * q + 16);
        _mm512_mask_storeu_ps(dst + q, (__mmask16)((1u << left) - 1u), _mm512_permutex2var_ps(low, even, high));
    }
}
#endif
