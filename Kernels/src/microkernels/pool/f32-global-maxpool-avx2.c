/* Global max of one plane with AVX2 (8 at a time, scalar remainder). */
#include "load-avx2.h"

#if FOVEA_HAVE_X86_VARIANTS

FOVEA_TARGET_AVX2
float fovea_f32_global_maxpool__avx2(size_t count, const float *x) {
    /* The largest value, NaN skipped (_mm256_max_ps(v, max) keeps max when v is NaN); its zero sign is fixed after. */
    __m256 max = _mm256_set1_ps(-INFINITY);
    size_t i = 0;
    for (; i + 8 <= count; i += 8) max = _mm256_max_ps(_mm256_loadu_ps(x + i), max);
    float lanes[8];
    _mm256_storeu_ps(lanes, max);
    float result = -INFINITY;
    for (int lane = 0; lane < 8; lane++) result = fovea_max_step_f32(result, lanes[lane]);
    for (; i < count; i++) result = fovea_max_step_f32(result, x[i]);
    return fovea_global_max_zero_sign(count, x, result);
}

#endif
