/*
 * bf16_gemm_4x16_scalar: the portable bf16 tile. Each bf16 value widens to
 * fp32 exactly and each product of two is exact in fp32, so adding the odd
 * then the even product of a pair rounds as vdpbf16ps does (which in
 * addition flushes denormals to zero).
 */
#include "gemm-bf16.h"

enum { MR = 4, NR = 16 };

void fovea_bf16_gemm_4x16__scalar(size_t mr, size_t nr, size_t kc, const uint16_t *a, const uint16_t *b, float *c,
                                  size_t ldc, const float *bias, int accumulate, const fovea_epilogue *epilogue) {
    float acc[MR][NR] = {{0}};
    for (size_t p = 0; p < kc; p += 2) {
        for (size_t r = 0; r < MR; r++) {
            const float a_even = fovea_f32_from_bf16(a[r * 2]), a_odd = fovea_f32_from_bf16(a[r * 2 + 1]);
            for (size_t j = 0; j < NR; j++) {
                float v = acc[r][j] + a_odd * fovea_f32_from_bf16(b[j * 2 + 1]);
                acc[r][j] = v + a_even * fovea_f32_from_bf16(b[j * 2]);
            }
        }
        a += MR * 2;
        b += NR * 2;
    }
    for (size_t r = 0; r < mr; r++) {
        for (size_t j = 0; j < nr; j++) {
            float v = acc[r][j];
            if (accumulate) v = c[r * ldc + j] + v;
            if (bias != NULL) v += bias[r];
            if (epilogue != NULL) v = fovea_epilogue_apply(epilogue, v);
            c[r * ldc + j] = v;
        }
    }
}
