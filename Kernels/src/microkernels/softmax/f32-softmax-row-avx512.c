/*
 * Softmax / LogSoftmax with AVX-512 and the shared vector exp
 * (../elementwise/exp-avx512.h). Rows (inner == 1) run along the axis, 32
 * elements per iteration in two accumulators, with masked tails; columns
 * (inner > 1) run 16 slices per vector down the axis.
 */
#include "softmax-avx512.h"

#if FOVEA_HAVE_X86_VARIANTS

FOVEA_TARGET_AVX512
void fovea_f32_softmax_row__avx512(size_t axis, const float *x, float *y, int log) {
    const __m512 minus_inf = _mm512_set1_ps(-INFINITY);
    __m512 m0 = minus_inf, m1 = minus_inf;
    size_t i = 0;
    for (; i + 32 <= axis; i += 32) {
        m0 = _mm512_max_ps(m0, _mm512_loadu_ps(x + i));
        m1 = _mm512_max_ps(m1, _mm512_loadu_ps(x + i + 16));
    }
    for (; i < axis; i += 16) m0 = _mm512_max_ps(m0, _mm512_mask_loadu_ps(minus_inf, low_lanes(axis - i), x + i));
    /* A NaN may be lost here, but exp(NaN - max) makes the sum, and so every output, NaN. */
    const __m512 max = _mm512_set1_ps(_mm512_reduce_max_ps(_mm512_max_ps(m0, m1)));

    __m512 s0 = _mm512_setzero_ps(), s1 = _mm512_setzero_ps();
    for (i = 0; i + 32 <= axis; i += 32) {
        const __m512 e0 = fovea_exp_nonpositive_avx512(_mm512_sub_ps(_mm512_loadu_ps(x + i), max));
        const __m512 e1 = fovea_exp_nonpositive_avx512(_mm512_sub_ps(_mm512_loadu_ps(x + i + 16), max));
        if (!log) {
            _mm512_storeu_ps(y + i, e0);
            _mm512_storeu_ps(y + i + 16, e1);
        }
        s0 = _mm512_add_ps(s0, e0);
        s1 = _mm512_add_ps(s1, e1);
    }
    for (; i < axis; i += 16) {
        const __mmask16 m = low_lanes(axis - i);
        const __m512 e = fovea_exp_nonpositive_avx512(_mm512_sub_ps(_mm512_maskz_loadu_ps(m, x + i), max));
        if (!log) _mm512_mask_storeu_ps(y + i, m, e);
        s0 = _mm512_mask_add_ps(s0, m, s0, e);
    }
    const float sum = _mm512_reduce_add_ps(_mm512_add_ps(s0, s1));

    if (!log) {
        const __m512 scale = _mm512_set1_ps(1.0f / sum);
        for (i = 0; i + 16 <= axis; i += 16) _mm512_storeu_ps(y + i, _mm512_mul_ps(_mm512_loadu_ps(y + i), scale));
        if (i < axis) {
            const __mmask16 m = low_lanes(axis - i);
            _mm512_mask_storeu_ps(y + i, m, _mm512_mul_ps(_mm512_maskz_loadu_ps(m, y + i), scale));
        }
    } else {
        const __m512 shift = _mm512_set1_ps(logf(sum));
        for (i = 0; i < axis; i += 16) {
            const __mmask16 m = low_lanes(axis - i);
            const __m512 v = _mm512_maskz_loadu_ps(m, x + i);
            _mm512_mask_storeu_ps(y + i, m, _mm512_sub_ps(_mm512_sub_ps(v, max), shift));
        }
    }
}

#endif
