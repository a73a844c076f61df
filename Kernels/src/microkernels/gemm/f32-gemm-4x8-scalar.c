/* f32_gemm_4x8_scalar: the portable microkernel, and the reference the wider ones match. */
#include "gemm.h"

enum { MR = 4, NR = 8 };

static inline void tile(size_t mr, size_t nr, size_t kc, const float *a, const float *b, size_t ldb, float *c,
                        size_t ldc, const float *bias, int accumulate, const fovea_epilogue *epilogue) {
    float acc[MR][NR] = {{0}};
    for (size_t k = 0; k < kc; k++) {
        for (size_t r = 0; r < MR; r++) {
            const float av = a[k * MR + r];
            for (size_t j = 0; j < NR; j++) acc[r][j] += av * b[k * ldb + j];
        }
    }
    for (size_t r = 0; r < mr; r++) {
        float *row = c + r * ldc;
        for (size_t j = 0; j < nr; j++) {
            float v = acc[r][j];
            if (accumulate) v += row[j];
            if (bias != NULL) v += bias[r];
            if (epilogue != NULL) v = fovea_epilogue_apply(epilogue, v);
            row[j] = v;
        }
    }
}

void fovea_f32_gemm_4x8__scalar(size_t mr, size_t nr, size_t kc, const float *a, const float *b, float *c, size_t ldc,
                                const float *bias, int accumulate, const fovea_epilogue *epilogue) {
    tile(mr, nr, kc, a, b, NR, c, ldc, bias, accumulate, epilogue);
}

void fovea_f32_gemm_4x8__scalar_strided(size_t mr, size_t kc, const float *a, const float *b, size_t ldb, float *c,
                                        size_t ldc, const float *bias, int accumulate, const fovea_epilogue *epilogue) {
    tile(mr, NR, kc, a, b, ldb, c, ldc, bias, accumulate, epilogue);
}
