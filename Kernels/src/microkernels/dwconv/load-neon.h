/*
 * NEON helpers for the depthwise variants (the vector epilogue is the shared
 * ../gemm/epilogue-neon.h). NEON has no masked loads: border vectors are
 * gathered lane by lane with zeros for the columns outside the row, which only
 * the strips at a plane's edges pay for. Include only from *-neon.c files.
 */
#ifndef FOVEA_KERNELS_DEPTHWISE_LOAD_NEON_H
#define FOVEA_KERNELS_DEPTHWISE_LOAD_NEON_H

#include "dwconv.h"
#include "../gemm/epilogue-neon.h"

#if FOVEA_HAVE_NEON_VARIANTS
#include <arm_neon.h>

/* Lane l: row[start + l*stride] if that column lies in [0, width) and l < count, else 0. */
static inline float32x4_t fovea_dw_load_lanes_neon(const float *row, int64_t start, int64_t stride, int64_t width,
                                                   int64_t count) {
    float lanes[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    const fovea_dw_lanes valid = fovea_dw_valid_lanes(start, stride, width, count < 4 ? count : 4);
    for (int64_t l = valid.lo; l < valid.hi; l++) lanes[l] = row[start + l * stride];
    return vld1q_f32(lanes);
}

/* The low `count` lanes (1..4) of v. */
static inline void fovea_dw_store_neon(float *dst, float32x4_t v, int64_t count) {
    if (count >= 4) vst1q_f32(dst, v);
    else fovea_store_partial_neon(dst, v, (size_t)count);
}

#endif /* FOVEA_HAVE_NEON_VARIANTS */

#endif
