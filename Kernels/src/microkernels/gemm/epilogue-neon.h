/*
 * The fused epilogue on 4 floats, for NEON variants (include only from
 * *-neon.c files). Same results as fovea_epilogue_apply in gemm.h: selects,
 * not fmax/fmin (which return NaN for a NaN operand and order the zeros), so
 * NaN and the sign of zero come out as in the scalar code.
 */
#ifndef FOVEA_KERNELS_EPILOGUE_NEON_H
#define FOVEA_KERNELS_EPILOGUE_NEON_H

#include "gemm.h"

#if FOVEA_HAVE_NEON_VARIANTS
#include <arm_neon.h>

static inline float32x4_t fovea_epilogue_neon(float32x4_t v, const fovea_epilogue *e) {
    const float32x4_t zero = vdupq_n_f32(0.0f);
    if (e->leaky) v = vbslq_f32(vcltq_f32(v, zero), vmulq_n_f32(v, e->alpha), v);
    if (e->relu) v = vbslq_f32(vcgtq_f32(v, zero), v, zero);
    const float32x4_t lo = vdupq_n_f32(e->lo), hi = vdupq_n_f32(e->hi);
    v = vbslq_f32(vcltq_f32(v, lo), lo, v);
    return vbslq_f32(vcgtq_f32(v, hi), hi, v);
}

/* src[0 .. count) (count <= 4) into the low lanes, `fill` in the others; reads nothing past src[count-1]. */
static inline float32x4_t fovea_load_partial_neon(const float *src, size_t count, float fill) {
    float lanes[4] = {fill, fill, fill, fill};
    for (size_t i = 0; i < count && i < 4; i++) lanes[i] = src[i];
    return vld1q_f32(lanes);
}

/* The low `count` (<= 4) lanes of v into dst[0 .. count); writes nothing else. */
static inline void fovea_store_partial_neon(float *dst, float32x4_t v, size_t count) {
    float lanes[4];
    vst1q_f32(lanes, v);
    for (size_t i = 0; i < count && i < 4; i++) dst[i] = lanes[i];
}

#endif
#endif
