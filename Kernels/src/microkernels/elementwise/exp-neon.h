/*
 * exp(z) for z <= 0 with NEON, for softmax. Include only from *-neon.c files.
 *
 * The AVX2 scheme (exp-avx2.h) on 4 lanes: n = round(z·log2 e), r = z − n·ln2
 * in two parts, the degree-7 Taylor polynomial of e^r by FMAs, and 2^n,
 * −151 <= n <= 0, applied as two normal powers of two 2^(n − n/2)·2^(n/2), the
 * first product exact, so a subnormal result is rounded once.
 */
#ifndef FOVEA_KERNELS_EXP_NEON_H
#define FOVEA_KERNELS_EXP_NEON_H

#include "../../runtime/runtime.h"

#if FOVEA_HAVE_NEON_VARIANTS
#include <arm_neon.h>

static inline float32x4_t fovea_exp_nonpositive_neon(float32x4_t z) {
    /* vmaxq keeps a NaN z NaN (and the result is NaN, whatever scale n gives). */
    z = vmaxq_f32(vdupq_n_f32(-104.5f), z);
    const float32x4_t n = vrndnq_f32(vmulq_f32(z, vdupq_n_f32(0x1.715476p+0f)));
    float32x4_t r = vfmaq_f32(z, n, vdupq_n_f32(-0x1.62E400p-1f));
    r = vfmaq_f32(r, n, vdupq_n_f32(-0x1.7F7D1Cp-20f));
    float32x4_t q = vfmaq_f32(vdupq_n_f32(0x1.6c16c2p-10f), vdupq_n_f32(0x1.a01a02p-13f), r);
    q = vfmaq_f32(vdupq_n_f32(0x1.111112p-7f), q, r);
    q = vfmaq_f32(vdupq_n_f32(0x1.555556p-5f), q, r);
    q = vfmaq_f32(vdupq_n_f32(0x1.555556p-3f), q, r);
    q = vfmaq_f32(vdupq_n_f32(0.5f), q, r);
    q = vfmaq_f32(vdupq_n_f32(1.0f), q, r);
    q = vfmaq_f32(vdupq_n_f32(1.0f), q, r);
    const int32x4_t ni = vcvtq_s32_f32(n); /* n is an integer already */
    const int32x4_t half = vshrq_n_s32(ni, 1);
    const int32x4_t rest = vsubq_s32(ni, half);
    const int32x4_t bias = vdupq_n_s32(127);
    const float32x4_t s_half = vreinterpretq_f32_s32(vshlq_n_s32(vaddq_s32(half, bias), 23));
    const float32x4_t s_rest = vreinterpretq_f32_s32(vshlq_n_s32(vaddq_s32(rest, bias), 23));
    return vmulq_f32(vmulq_f32(q, s_rest), s_half);
}

#endif /* FOVEA_HAVE_NEON_VARIANTS */

#endif
