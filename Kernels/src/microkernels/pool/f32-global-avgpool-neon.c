/* Global average of one plane with NEON: 8 floats at a time summed in double (four pairs), scalar remainder. */
#include "pooling.h"

#if FOVEA_HAVE_NEON_VARIANTS
#include <arm_neon.h>

float fovea_f32_global_avgpool__neon(size_t count, const float *x) {
    float64x2_t s0 = vdupq_n_f64(0.0), s1 = s0, s2 = s0, s3 = s0;
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        const float32x4_t v0 = vld1q_f32(x + i), v1 = vld1q_f32(x + i + 4);
        s0 = vaddq_f64(s0, vcvt_f64_f32(vget_low_f32(v0)));
        s1 = vaddq_f64(s1, vcvt_high_f64_f32(v0));
        s2 = vaddq_f64(s2, vcvt_f64_f32(vget_low_f32(v1)));
        s3 = vaddq_f64(s3, vcvt_high_f64_f32(v1));
    }
    double sum = vaddvq_f64(vaddq_f64(vaddq_f64(s0, s1), vaddq_f64(s2, s3)));
    for (; i < count; i++) sum += x[i];
    return (float)(sum / (double)count);
}

#endif
