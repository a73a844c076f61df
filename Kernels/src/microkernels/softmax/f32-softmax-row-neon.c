/*
 * Softmax / LogSoftmax of one contiguous slice with NEON and the shared vector
 * exp (../elementwise/exp-neon.h): the AVX2 scheme on 4-float vectors, two
 * accumulators per pass; the last 1-3 elements through a small buffer, with
 * -inf (max pass) or 0 (sum) in the unused lanes.
 */
#include "softmax.h"
#include "../elementwise/exp-neon.h"
#include "../gemm/epilogue-neon.h" /* fovea_load_partial_neon, fovea_store_partial_neon */

#if FOVEA_HAVE_NEON_VARIANTS

void fovea_f32_softmax_row__neon(size_t axis, const float *x, float *y, int log) {
    const float32x4_t minus_inf = vdupq_n_f32(-INFINITY);
    float32x4_t m0 = minus_inf, m1 = minus_inf;
    size_t i = 0;
    for (; i + 8 <= axis; i += 8) {
        m0 = vmaxq_f32(m0, vld1q_f32(x + i));
        m1 = vmaxq_f32(m1, vld1q_f32(x + i + 4));
    }
    for (; i + 4 <= axis; i += 4) m0 = vmaxq_f32(m0, vld1q_f32(x + i));
    if (i < axis) m1 = vmaxq_f32(m1, fovea_load_partial_neon(x + i, axis - i, -INFINITY));
    /* FMAX makes the maximum NaN if any element is: then every output is NaN, as in the scalar code. */
    const float32x4_t max = vdupq_n_f32(vmaxvq_f32(vmaxq_f32(m0, m1)));

    float32x4_t s0 = vdupq_n_f32(0.0f), s1 = vdupq_n_f32(0.0f);
    for (i = 0; i + 8 <= axis; i += 8) {
        const float32x4_t e0 = fovea_exp_nonpositive_neon(vsubq_f32(vld1q_f32(x + i), max));
        const float32x4_t e1 = fovea_exp_nonpositive_neon(vsubq_f32(vld1q_f32(x + i + 4), max));
        if (!log) {
            vst1q_f32(y + i, e0);
            vst1q_f32(y + i + 4, e1);
        }
        s0 = vaddq_f32(s0, e0);
        s1 = vaddq_f32(s1, e1);
    }
    for (; i + 4 <= axis; i += 4) {
        const float32x4_t e = fovea_exp_nonpositive_neon(vsubq_f32(vld1q_f32(x + i), max));
        if (!log) vst1q_f32(y + i, e);
        s0 = vaddq_f32(s0, e);
    }
    if (i < axis) {
        /* Unused lanes hold -inf: exp gives 0 there. */
        const float32x4_t e = fovea_exp_nonpositive_neon(vsubq_f32(fovea_load_partial_neon(x + i, axis - i, -INFINITY), max));
        if (!log) fovea_store_partial_neon(y + i, e, axis - i);
        s1 = vaddq_f32(s1, e);
    }
    const float sum = vaddvq_f32(vaddq_f32(s0, s1));

    if (!log) {
        const float32x4_t scale = vdupq_n_f32(1.0f / sum);
        for (i = 0; i + 4 <= axis; i += 4) vst1q_f32(y + i, vmulq_f32(vld1q_f32(y + i), scale));
        for (; i < axis; i++) y[i] *= 1.0f / sum;
    } else {
        const float shift = logf(sum);
        const float32x4_t vshift = vdupq_n_f32(shift);
        for (i = 0; i + 4 <= axis; i += 4) vst1q_f32(y + i, vsubq_f32(vsubq_f32(vld1q_f32(x + i), max), vshift));
        for (; i < axis; i++) y[i] = (x[i] - vgetq_lane_f32(max, 0)) - shift;
    }
}

#endif
