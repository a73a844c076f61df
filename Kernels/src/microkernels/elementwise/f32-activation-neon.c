/*
 * ReLU / Clip / LeakyReLU over a contiguous range with NEON: 16 elements per
 * iteration, the last 1-3 through a small buffer, through the shared epilogue
 * (../gemm/epilogue-neon.h); bit-identical to the scalar loop.
 */
#include "elementwise.h"
#include "../gemm/epilogue-neon.h"

#if FOVEA_HAVE_NEON_VARIANTS
#include <arm_neon.h>

void fovea_f32_activation__neon(size_t n, const float *x, float *y, const fovea_epilogue *e) {
    const fovea_epilogue ep = *e;
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const float32x4_t v0 = vld1q_f32(x + i), v1 = vld1q_f32(x + i + 4);
        const float32x4_t v2 = vld1q_f32(x + i + 8), v3 = vld1q_f32(x + i + 12);
        vst1q_f32(y + i, fovea_epilogue_neon(v0, &ep));
        vst1q_f32(y + i + 4, fovea_epilogue_neon(v1, &ep));
        vst1q_f32(y + i + 8, fovea_epilogue_neon(v2, &ep));
        vst1q_f32(y + i + 12, fovea_epilogue_neon(v3, &ep));
    }
    for (; i + 4 <= n; i += 4) vst1q_f32(y + i, fovea_epilogue_neon(vld1q_f32(x + i), &ep));
    if (i < n) fovea_store_partial_neon(y + i, fovea_epilogue_neon(fovea_load_partial_neon(x + i, n - i, 0.0f), &ep), n - i);
}

#endif
