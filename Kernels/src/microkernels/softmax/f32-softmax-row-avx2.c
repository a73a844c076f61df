/*
 * Softmax / LogSoftmax with AVX2 + FMA and the shared vector exp
 * (../elementwise/exp-avx2.h): the AVX-512 scheme with 8-float vectors.
 * Tails use maskload / maskstore, with -inf (max pass) or 0 (sum) in the
 * unused lanes.
 */
#include "softmax-avx2.h"

#if FOVEA_HAVE_X86_VARIANTS

FOVEA_TARGET_AVX2
void fovea_f32_softmax_row__avx2(size_t axis, const float *x, float *y, int log) {
    const __m256 minus_inf = _mm256_set1_ps(-INFINITY);
    __m256 m0 = minus_inf, m1 = minus_inf;
    size_t i = 0;
    for (; i + 16 <= axis; i += 16) {
        m0 = _mm256_max_ps(m0, _mm256_loadu_ps(x + i));
        m1 = _mm256_max_ps(m1, _mm256_loadu_ps(x + i + 8));
    }
    for (; i < axis; i += 8) {
        const __m256i m = low_lanes(axis - i);
        m0 = _mm256_max_ps(m0, _mm256_blendv_ps(minus_inf, _mm256_maskload_ps(x + i, m), _mm256_castsi256_ps(m)));
    }
    /* A NaN may be lost here, but exp(NaN - max) makes the sum, and so every output, NaN. */
    const __m256 max = _mm256_set1_ps(horizontal_max(_mm256_max_ps(m0, m1)));

    __m256 s0 = _mm256_setzero_ps(), s1 = _mm256_setzero_ps();
    for (i = 0; i + 16 <= axis; i += 16) {
        const __m256 e0 = fovea_exp_nonpositive_avx2(_mm256_sub_ps(_mm256_loadu_ps(x + i), max));
        const __m256 e1 = fovea_exp_nonpositive_avx2(_mm256_sub_ps(_mm256_loadu_ps(x + i + 8), max));
        if (!log) {
            _mm256_storeu_ps(y + i, e0);
            _mm256_storeu_ps(y + i + 8, e1);
        }
        s0 = _mm256_add_ps(s0, e0);
        s1 = _mm256_add_ps(s1, e1);
    }
    for (; i < axis; i += 8) {
        const __m256i m = low_lanes(axis - i);
        const __m256 e = fovea_exp_nonpositive_avx2(_mm256_sub_ps(_mm256_maskload_ps(x + i, m), max));
        if (!log) _mm256_maskstore_ps(y + i, m, e);
        s0 = _mm256_add_ps(s0, _mm256_and_ps(e, _mm256_castsi256_ps(m)));
    }
    const float sum = horizontal_sum(_mm256_add_ps(s0, s1));

    if (!log) {
        const __m256 scale = _mm256_set1_ps(1.0f / sum);
        for (i = 0; i + 8 <= axis; i += 8) _mm256_storeu_ps(y + i, _mm256_mul_ps(_mm256_loadu_ps(y + i), scale));
        if (i < axis) {
            const __m256i m = low_lanes(axis - i);
            _mm256_maskstore_ps(y + i, m, _mm256_mul_ps(_mm256_maskload_ps(y + i, m), scale));
        }
    } else {
        const __m256 shift = _mm256_set1_ps(logf(sum));
        for (i = 0; i + 8 <= axis; i += 8) {
            _mm256_storeu_ps(y + i, _mm256_sub_ps(_mm256_sub_ps(_mm256_loadu_ps(x + i), max), shift));
        }
        if (i < axis) {
            const __m256i m = low_lanes(axis - i);
            _mm256_maskstore_ps(y + i, m, _mm256_sub_ps(_mm256_sub_ps(_mm256_maskload_ps(x + i, m), max), shift));
        }
    }
}

#endif
