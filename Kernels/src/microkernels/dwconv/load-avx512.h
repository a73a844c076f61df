/*
 * AVX-512 helpers for the depthwise variants: lane masks (the vector
 * epilogue is the shared ../gemm/epilogue-avx512.h). Include only from *-avx512.c files: everything here is compiled
 * for AVX-512F and must only run after dispatch chose it.
 */
#ifndef FOVEA_KERNELS_DEPTHWISE_LOAD_AVX512_H
#define FOVEA_KERNELS_DEPTHWISE_LOAD_AVX512_H

#include "dwconv.h"
#include "../gemm/epilogue-avx512.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

/* Lanes [lo, hi) set, 0 <= lo <= hi <= 16. */
static inline FOVEA_TARGET_AVX512 __mmask16 fovea_dw_mask_avx512(fovea_dw_lanes lanes) {
    const uint32_t below_hi = lanes.hi >= 16 ? 0xFFFFu : (1u << lanes.hi) - 1u;
    const uint32_t below_lo = lanes.lo >= 16 ? 0xFFFFu : (1u << lanes.lo) - 1u;
    return (__mmask16)(below_hi & ~below_lo);
}

/* Lanes l < count whose input column start + l*stride lies in [0, width). */
static inline FOVEA_TARGET_AVX512 __mmask16 fovea_dw_row_mask_avx512(int64_t start, int64_t stride, int64_t width,
                                                                     int64_t count) {
    return fovea_dw_mask_avx512(fovea_dw_valid_lanes(start, stride, width, count));
}

/* The epilogue as vectors. */
#endif /* FOVEA_HAVE_X86_VARIANTS */

#endif
