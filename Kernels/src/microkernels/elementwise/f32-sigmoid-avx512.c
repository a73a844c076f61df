/*
 * Sigmoid with AVX-512: e = exp(-|x|) with the shared vector exp
 * (exp-avx512.h), then (x > 0 ? 1 : e) / (1 + e), one IEEE division. 32
 * elements per iteration, a masked tail.
 */
#include "elementwise.h"
#include "exp-avx512.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

static inline FOVEA_TARGET_AVX512 __m512 sigmoid(__m512 x) {
    const __m512 one = _mm512_set1_ps(1.0f);
    const __m512 z = _mm512_castsi512_ps(_mm512_or_si512(_mm512_castps_si512(x), _mm512_set1_epi32((int)0x80000000u)));
    const __m512 e = fovea_exp_nonpositive_avx512(z);
    const __m512 numerator = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_GT_OQ), e, one);
    return _mm512_div_ps(numerator, _mm512_add_ps(one, e));
}

FOVEA_TARGET_AVX512
void fovea_f32_sigmoid__avx512(size_t n, const float *x, float *y) {
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        const __m512 v0 = _mm512_loadu_ps(x + i), v1 = _mm512_loadu_ps(x + i + 16);
        _mm512_storeu_ps(y + i, sigmoid(v0));
        _mm512_storeu_ps(y + i + 16, sigmoid(v1));
    }
    for (; i < n; i += 16) {
        const __mmask16 m = n - i >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (n - i)) - 1u);
        _mm512_mask_storeu_ps(y + i, m, sigmoid(_mm512_maskz_loadu_ps(m, x + i)));
    }
}

#endif
