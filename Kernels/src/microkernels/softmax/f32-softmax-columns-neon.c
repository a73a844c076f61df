/*
 * Softmax / LogSoftmax of `columns` slices side by side with NEON and the
 * shared vector exp (../elementwise/exp-neon.h): 4 slices per vector, the
 * AVX2 scheme; the last 1-3 slices through a small buffer per element.
 */
#include "softmax.h"
#include "../elementwise/exp-neon.h"
#include "../gemm/epilogue-neon.h" /* fovea_load_partial_neon, fovea_store_partial_neon */

#if FOVEA_HAVE_NEON_VARIANTS

/* x[0 .. lanes) (lanes <= 4), `fill` beyond. */
static inline float32x4_t load(const float *x, size_t lanes, float fill) {
    return lanes == 4 ? vld1q_f32(x) : fovea_load_partial_neon(x, lanes, fill);
}

static inline void store(float *y, float32x4_t v, size_t lanes) {
    if (lanes == 4) vst1q_f32(y, v);
    else fovea_store_partial_neon(y, v, lanes);
}

static inline __attribute__((always_inline)) void columns4(size_t axis, size_t stride, const float *x, float *y,
                                                           int log, size_t lanes) {
    float32x4_t max = vdupq_n_f32(-INFINITY);
    /* Unused lanes read 0: exp(0 - 0), harmless. */
    for (size_t k = 0; k < axis; k++) max = vmaxq_f32(max, load(x + k * stride, lanes, 0.0f));
    float32x4_t sum = vdupq_n_f32(0.0f);
    for (size_t k = 0; k < axis; k++) {
        const float32x4_t e = fovea_exp_nonpositive_neon(vsubq_f32(load(x + k * stride, lanes, 0.0f), max));
        if (!log) store(y + k * stride, e, lanes);
        sum = vaddq_f32(sum, e);
    }
    if (!log) {
        const float32x4_t scale = vdivq_f32(vdupq_n_f32(1.0f), sum);
        for (size_t k = 0; k < axis; k++) store(y + k * stride, vmulq_f32(load(y + k * stride, lanes, 0.0f), scale), lanes);
    } else {
        float s[4];
        vst1q_f32(s, sum);
        for (size_t l = 0; l < lanes; l++) s[l] = logf(s[l]);
        const float32x4_t shift = vld1q_f32(s);
        for (size_t k = 0; k < axis; k++) {
            store(y + k * stride, vsubq_f32(vsubq_f32(load(x + k * stride, lanes, 0.0f), max), shift), lanes);
        }
    }
}

void fovea_f32_softmax_columns__neon(size_t axis, size_t stride, size_t columns, const float *x, float *y, int log) {
    size_t j = 0;
    for (; j + 4 <= columns; j += 4) columns4(axis, stride, x + j, y + j, log, 4);
    if (j < columns) columns4(axis, stride, x + j, y + j, log, columns - j);
}

#endif
