/*
 * Softmax / LogSoftmax with AVX-512 and the shared vector exp
 * (../elementwise/exp-avx512.h). Rows (inner == 1) run along the axis, 32
 * elements per iteration in two accumulators, with masked tails; columns
 * (inner > 1) run 16 slices per vector down the axis.
 */
#include "softmax.h"
#include "../elementwise/exp-avx512.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

static inline FOVEA_TARGET_AVX512 __mmask16 low_lanes(size_t count) {
    return count >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << count) - 1u);
}

FOVEA_TARGET_AVX512
void fovea_softmax_row_f32__avx512(size_t axis, const float *x, float *y, int log) {
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

FOVEA_TARGET_AVX512
void fovea_softmax_columns_f32__avx512(size_t axis, size_t stride, size_t columns, const float *x, float *y,
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
