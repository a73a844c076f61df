/*
 * f32_gemm_8x12_neon: the AArch64 SGEMM tile, 8 rows × 12 columns in 24 of
 * the 32 q registers (after XNNPACK's and OpenBLAS's 8x12 NEON tiles). Per k it
 * loads 8 values of A (two q registers) and 12 of B (three) and does 24 FMAs
 * by lane (fmla v.4s, v.4s, v.s[i]): 5 loads for 24 FMAs, so the two to four
 * FMA pipes of a Neoverse or Apple core, not the load ports, set the pace.
 */
#include "epilogue-neon.h"

#if FOVEA_HAVE_NEON_VARIANTS
#include <arm_neon.h>

enum { MR = 8, NR = 12 };

/* Row r of the tile (three vectors) into c: old values, bias, epilogue; nr < NR goes through a buffer. */
static inline void store_row(float32x4_t v0, float32x4_t v1, float32x4_t v2, size_t nr, float *row, float bias,
                             int has_bias, int accumulate, const fovea_epilogue *epilogue) {
    if (nr == NR) {
        if (accumulate) {
            v0 = vaddq_f32(v0, vld1q_f32(row));
            v1 = vaddq_f32(v1, vld1q_f32(row + 4));
            v2 = vaddq_f32(v2, vld1q_f32(row + 8));
        }
        if (has_bias) {
            const float32x4_t b = vdupq_n_f32(bias);
            v0 = vaddq_f32(v0, b);
            v1 = vaddq_f32(v1, b);
            v2 = vaddq_f32(v2, b);
        }
        if (epilogue != NULL) {
            v0 = fovea_epilogue_neon(v0, epilogue);
            v1 = fovea_epilogue_neon(v1, epilogue);
            v2 = fovea_epilogue_neon(v2, epilogue);
        }
        vst1q_f32(row, v0);
        vst1q_f32(row + 4, v1);
        vst1q_f32(row + 8, v2);
        return;
    }
    /* A ragged last panel: never touch C past column nr. */
    float values[NR];
    vst1q_f32(values, v0);
    vst1q_f32(values + 4, v1);
    vst1q_f32(values + 8, v2);
    for (size_t j = 0; j < nr; j++) {
        float v = values[j];
        if (accumulate) v += row[j];
        if (has_bias) v += bias;
        if (epilogue != NULL) v = fovea_epilogue_apply(epilogue, v);
        row[j] = v;
    }
}

#define FMA_ROW(r, a, lane)                            \
    c##r##0 = vfmaq_laneq_f32(c##r##0, b0, a, lane);   \
    c##r##1 = vfmaq_laneq_f32(c##r##1, b1, a, lane);   \
    c##r##2 = vfmaq_laneq_f32(c##r##2, b2, a, lane);

#define STORE_ROW(r)                                                                                    \
    if (r < mr)                                                                                         \
        store_row(c##r##0, c##r##1, c##r##2, nr, c + r * ldc, bias != NULL ? bias[r] : 0.0f, bias != NULL, \
                  accumulate, epilogue);

/* B rows ldb floats apart (NR for a packed panel); A a packed panel of MR rows. */
static inline void tile(size_t mr, size_t nr, size_t kc, const float *a, const float *b, size_t ldb, float *c,
                        size_t ldc, const float *bias, int accumulate, const fovea_epilogue *epilogue) {
    float32x4_t c00 = vdupq_n_f32(0.0f), c01 = c00, c02 = c00, c10 = c00, c11 = c00, c12 = c00;
    float32x4_t c20 = c00, c21 = c00, c22 = c00, c30 = c00, c31 = c00, c32 = c00;
    float32x4_t c40 = c00, c41 = c00, c42 = c00, c50 = c00, c51 = c00, c52 = c00;
    float32x4_t c60 = c00, c61 = c00, c62 = c00, c70 = c00, c71 = c00, c72 = c00;
    for (size_t k = 0; k < kc; k++) {
        const float32x4_t a0 = vld1q_f32(a), a1 = vld1q_f32(a + 4);
        const float32x4_t b0 = vld1q_f32(b), b1 = vld1q_f32(b + 4), b2 = vld1q_f32(b + 8);
        a += MR;
        b += ldb;
        FMA_ROW(0, a0, 0)
        FMA_ROW(1, a0, 1)
        FMA_ROW(2, a0, 2)
        FMA_ROW(3, a0, 3)
        FMA_ROW(4, a1, 0)
        FMA_ROW(5, a1, 1)
        FMA_ROW(6, a1, 2)
        FMA_ROW(7, a1, 3)
    }
    STORE_ROW(0)
    STORE_ROW(1)
    STORE_ROW(2)
    STORE_ROW(3)
    STORE_ROW(4)
    STORE_ROW(5)
    STORE_ROW(6)
    STORE_ROW(7)
}

void fovea_f32_gemm_8x12__neon(size_t mr, size_t nr, size_t kc, const float *a, const float *b, float *c, size_t ldc,
                               const float *bias, int accumulate, const fovea_epilogue *epilogue) {
    tile(mr, nr, kc, a, b, NR, c, ldc, bias, accumulate, epilogue);
}

void fovea_f32_gemm_8x12__neon_strided(size_t mr, size_t kc, const float *a, const float *b, size_t ldb, float *c,
                                       size_t ldc, const float *bias, int accumulate, const fovea_epilogue *epilogue) {
    tile(mr, NR, kc, a, b, ldb, c, ldc, bias, accumulate, epilogue);
}

#endif
