/* Global average of one plane with AVX-512 (masked tail, no scalar remainder). */
#include "load-avx512.h"

#if FOVEA_HAVE_X86_VARIANTS

FOVEA_TARGET_AVX512
float fovea_f32_global_avgpool__avx512(size_t count, const float *x) {
    __m512d sum_low = _mm512_setzero_pd(), sum_high = _mm512_setzero_pd();
    for (size_t i = 0; i < count; i += 16) {
        const size_t left = count - i;
        const __m512 v = _mm512_maskz_loadu_ps(fovea_low_lanes_avx512(left < 16 ? (int64_t)left : 16), x + i);
        const __m256 low = _mm512_castps512_ps256(v);
        const __m256 high = _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1));
        sum_low = _mm512_add_pd(sum_low, _mm512_cvtps_pd(low));
        sum_high = _mm512_add_pd(sum_high, _mm512_cvtps_pd(high));
    }
    const double sum = _mm512_reduce_add_pd(_mm512_add_pd(sum_low, sum_high));
    return (float)(sum / (double)count);
}

#endif
