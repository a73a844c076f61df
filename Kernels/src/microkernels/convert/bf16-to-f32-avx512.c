/* bf16 -> fp32 on AVX-512F: widen 16 values to 32 bits and shift them into the upper half (exact). */
#include "convert.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

FOVEA_TARGET_AVX512 void fovea_bf16_to_f32__avx512(const uint16_t *x, float *y, size_t n) {
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m512i wide = _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(x + i)));
        _mm512_storeu_si512(y + i, _mm512_slli_epi32(wide, 16));
    }
    for (; i < n; i++) y[i] = fovea_f32_from_bf16(x[i]);
}
#endif
