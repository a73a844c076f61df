/*
 * Softmax / LogSoftmax with AVX-512 and the shared vector exp
 * (../elementwise/exp-avx512.h). Rows (inner == 1) run along the axis, 32
 * elements per iteration in two accumulators, with masked tails; columns
 * (inner > 1) run 16 slices per vector down the axis.
 */
#include "softmax-avx512.h"

#if FOVEA_HAVE_X86_VARIANTS

FOVEA_TARGET_AVX512
void fovea_f32_softmax_columns__avx512(size_t axis, size_t stride, size_t columns, const float *x, float *y,
                                       int log) {
    const __m512 minus_inf = _mm512_set1_ps(-INFINITY);
    for (size_t j = 0; j < columns; j += 16) {
        const __mmask16 m = low_lanes(columns - j);
        __m512 max = minus_inf;
        for (size_t k = 0; k < axis; k++) max = _mm512_max_ps(max, _mm512_mask_loadu_ps(minus_inf, m, x + k * stride + j));
        max = _mm512_maskz_mov_ps(m, max); /* unused lanes: exp(0 - 0) */
        __m512 sum = _mm512_setzero_ps();
        for (size_t k = 0; k < axis; k++) {
            const __m512 e = fovea_exp_nonpositive_avx512(_mm512_sub_ps(_mm512_maskz_loadu_ps(m, x + k * stride + j), max));
            if (!log) _mm512_mask_storeu_ps(y + k * stride + j, m, e);
            sum = _mm512_add_ps(sum, e);
        }
        if (!log) {
            const __m512 scale = _mm512_div_ps(_mm512_set1_ps(1.0f), sum);
            for (size_t k = 0; k < axis; k++) {
                float *out = y + k * stride + j;
                _mm512_mask_storeu_ps(out, m, _mm512_mul_ps(_mm512_maskz_loadu_ps(m, out), scale));
            }
        } else {
            float lanes[16];
            _mm512_storeu_ps(lanes, sum);
            const size_t active = columns - j < 16 ? columns - j : 16;
            for (size_t l = 0; l < active; l++) lanes[l] = logf(lanes[l]);
            const __m512 shift = _mm512_loadu_ps(lanes);
            for (size_t k = 0; k < axis; k++) {
                const __m512 v = _mm512_maskz_loadu_ps(m, x + k * stride + j);
                _mm512_mask_storeu_ps(y + k * stride + j, m, _mm512_sub_ps(_mm512_sub_ps(v, max), shift));
            }
        }
    }
}

#endif
