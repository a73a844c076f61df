/* Global max of one plane with NEON (8 at a time, scalar remainder). */
#include "pooling.h"

#if FOVEA_HAVE_NEON_VARIANTS
#include <arm_neon.h>

float fovea_f32_global_maxpool__neon(size_t count, const float *x) {
    /* The largest value, NaN skipped (x > max is false for NaN); its zero sign is fixed after. */
    float32x4_t max0 = vdupq_n_f32(-INFINITY), max1 = max0;
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        const float32x4_t v0 = vld1q_f32(x + i), v1 = vld1q_f32(x + i + 4);
        max0 = vbslq_f32(vcgtq_f32(v0, max0), v0, max0);
        max1 = vbslq_f32(vcgtq_f32(v1, max1), v1, max1);
    }
    float lanes[8];
    vst1q_f32(lanes, max0);
    vst1q_f32(lanes + 4, max1);
    float result = -INFINITY;
    for (int lane = 0; lane < 8; lane++) result = fovea_max_step_f32(result, lanes[lane]);
    for (; i < count; i++) result = fovea_max_step_f32(result, x[i]);
    return fovea_global_max_zero_sign(count, x, result);
}

#endif
