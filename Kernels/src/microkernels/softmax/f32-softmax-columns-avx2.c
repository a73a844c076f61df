/*
 * Softmax / LogSoftmax with AVX2 + FMA and the shared vector exp
 * (../elementwise/exp-avx2.h): the AVX-512 scheme with 8-float vectors.
 * Tails use maskload / maskstore, with -inf (max pass) or 0 (sum) in the
 * unused lanes.
 */
#include "softmax-avx2.h"

#if FOVEA_HAVE_X86_VARIANTS

FOVEA_TARGET_AVX2
void fovea_f32_softmax_columns__avx2(size_t axis, size_t stride, size_t columns, const float *x, float *y, int log) {
    const __m256 minus_inf = _mm256_set1_ps(-INFINITY);
    for (size_t j = 0; j < columns; j += 8) {
        const __m256i m = low_lanes(columns - j);
        const __m256 active = _mm256_castsi256_ps(m);
        __m256 max = minus_inf;
        for (size_t k = 0; k < axis; k++) {
            max = _mm256_max_ps(max, _mm256_blendv_ps(minus_inf, _mm256_maskload_ps(x + k * stride + j, m), active));
        }
        max = _mm256_and_ps(max, active); /* unused lanes: exp(0 - 0) */
        __m256 sum = _mm256_setzero_ps();
        for (size_t k = 0; k < axis; k++) {
            const __m256 e = fovea_exp_nonpositive_avx2(_mm256_sub_ps(_mm256_maskload_ps(x + k * stride + j, m), max));
            if (!log) _mm256_maskstore_ps(y + k * stride + j, m, e);
            sum = _mm256_add_ps(sum, e);
        }
        if (!log) {
            const __m256 scale = _mm256_div_ps(_mm256_set1_ps(1.0f), sum);
            for (size_t k = 0; k < axis; k++) {
                float *out = y + k * stride + j;
                _mm256_maskstore_ps(out, m, _mm256_mul_ps(_mm256_maskload_ps(out, m), scale));
            }
        } else {
            float lanes[8];
            _mm256_storeu_ps(lanes, sum);
            const size_t active = columns - j < 8 ? columns - j : 8;
            for (size_t l = 0; l < active; l++) lanes[l] = logf(lanes[l]);
            const __m256 shift = _mm256_loadu_ps(lanes);
            for (size_t k = 0; k < axis; k++) {
                const __m256 v = _mm256_maskload_ps(x + k * stride + j, m);
                _mm256_maskstore_ps(y + k * stride + j, m, _mm256_sub_ps(_mm256_sub_ps(v, max), shift));
            }
        }
    }
}

#endif
