/* Global average of one plane with AVX2 (8 at a time, scalar remainder). */
#include "load-avx2.h"

#if FOVEA_HAVE_X86_VARIANTS

FOVEA_TARGET_AVX2
float fovea_f32_global_avgpool__avx2(size_t count, const float *x) {
    __m256d sum_low = _mm256_setzero_pd(), sum_high = _mm256_setzero_pd();
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        const __m256 v = _mm256_loadu_ps(x + i);
        sum_low = _mm256_add_pd(sum_low, _mm256_cvtps_pd(_mm256_castps256_ps128(v)));
        sum_high = _mm256_add_pd(sum_high, _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1)));
    }
    double lanes[4];
    _mm256_storeu_pd(lanes, _mm256_add_pd(sum_low, sum_high));
    double sum = (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
    for (; i < count; i++) sum += x[i];
    return (float)(sum / (double)count);
}

#endif
