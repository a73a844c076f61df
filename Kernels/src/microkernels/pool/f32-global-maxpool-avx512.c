/* Global max of one plane with AVX-512 (masked tail, no scalar remainder). */
#include "load-avx512.h"

#if FOVEA_HAVE_X86_VARIANTS

FOVEA_TARGET_AVX512
float fovea_f32_global_maxpool__avx512(size_t count, const float *x) {
    /* The largest value, NaN skipped (_mm512_max_ps(v, max) keeps max when v is NaN); its zero sign is fixed after. */
    const __m512 minus_infinity = _mm512_set1_ps(-INFINITY);
    __m512 max = minus_infinity;
    for (size_t i = 0; i < count; i += 16) {
        const size_t left = count - i;
        const __mmask16 lanes = fovea_low_lanes_avx512(left < 16 ? (int64_t)left : 16);
        max = _mm512_max_ps(_mm512_mask_loadu_ps(minus_infinity, lanes, x + i), max);
    }
    float lanes[16];
    _mm512_storeu_ps(lanes, max);
    float result = -INFINITY;
    for (int i = 0; i < 16; i++) result = fovea_max_step_f32(result, lanes[i]);
    return fovea_global_max_zero_sign(count, x, result);
}

#endif
