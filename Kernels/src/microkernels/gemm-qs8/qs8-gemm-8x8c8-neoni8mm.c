/*
 * int8 GEMM tile for AArch64 with the int8 matrix multiply (SMMLA, i8mm:
 * ARMv8.6, optional from ARMv8.2; Graviton3, Apple M2 on): 8 rows × 8 columns,
 * k in groups of 8. SMMLA multiplies a 2×8 block of A (two rows' 8 weights,
 * one q register) by a 2×8 block of B (two columns' 8 activations) into a 2×2
 * block of int32 sums: 32 multiply-adds per instruction where SDOT does 16.
 * Per k-group: 4 A and 4 B vectors, 16 SMMLAs into 16 accumulators. The
 * existing packers give exactly those blocks with a_kr = b_kr = 8 (rows m and
 * m + 1 of a k-group are 16 adjacent bytes, and so are columns n and n + 1).
 *
 * SMMLA multiplies signed bytes: as for the SDOT tile, the config's b_signed
 * packs the activations as x − 128 and folds 128 · Σw into the packed bias.
 * The epilogue unzips the 2×2 blocks into rows and is fovea_qs8_requantize's
 * arithmetic, as in qs8-gemm-8x12c4-neondot.c.
 */
#include "gemm-qs8.h"

#if FOVEA_HAVE_NEON_VARIANTS
#include <arm_neon.h>
#include <string.h>

enum { MR = 8, NR = 8 };

/* Four int32 lanes requantized (still int32: 0..255 after the clamp and zero point). */
FOVEA_TARGET_NEON_I8MM static inline int32x4_t requant4(int32x4_t acc, int32_t bias, float scale,
                                                        const fovea_qs8_requant *rq) {
    float32x4_t v = vmulq_n_f32(vcvtq_f32_s32(vaddq_s32(acc, vdupq_n_s32(bias))), scale);
    v = vminq_f32(vmaxq_f32(v, vdupq_n_f32(rq->min_less_zero_point)), vdupq_n_f32(rq->max_less_zero_point));
    return vaddq_s32(vcvtnq_s32_f32(v), vdupq_n_s32(rq->zero_point));
}

/* Row m's 8 sums (columns 0-3, 4-7) into 8 bytes at out. */
FOVEA_TARGET_NEON_I8MM static inline void store_row(int32x4_t lo, int32x4_t hi, size_t m, size_t nr,
                                                    const fovea_qs8_requant *rq, uint8_t *out) {
    const int32x4_t q0 = requant4(lo, rq->bias[m], rq->scale[m], rq), q1 = requant4(hi, rq->bias[m], rq->scale[m], rq);
    const uint16x8_t q = vcombine_u16(vmovn_u32(vreinterpretq_u32_s32(q0)), vmovn_u32(vreinterpretq_u32_s32(q1)));
    const uint8x8_t bytes = veor_u8(vmovn_u16(q), vdup_n_u8(rq->output_xor));
    if (nr == NR) {
        vst1_u8(out, bytes);
    } else {
        uint8_t row[NR];
        vst1_u8(row, bytes);
        memcpy(out, row, nr);
    }
}

FOVEA_TARGET_NEON_I8MM void fovea_qs8_gemm_8x8c8__neoni8mm(size_t mr, size_t nr, size_t k, const void *a,
                                                           const uint8_t *b, const fovea_qs8_requant *rq,
                                                           uint8_t *c, size_t ldc,
                                                           const struct fovea_qs8_gemm_config *config) {
    (void)config;
    const int8_t *w = (const int8_t *)a;
    const int8_t *x = (const int8_t *)b; /* packed as x ^ 0x80: signed */
    /* acc[i][j]: rows 2i, 2i+1 × columns 2j, 2j+1 as (r0c0, r0c1, r1c0, r1c1). */
    int32x4_t acc[4][4];
    for (int i = 0; i < 4; i++) acc[i][0] = acc[i][1] = acc[i][2] = acc[i][3] = vdupq_n_s32(0);
    for (size_t g = 0; g < k / 8; g++) {
        const int8x16_t a0 = vld1q_s8(w), a1 = vld1q_s8(w + 16), a2 = vld1q_s8(w + 32), a3 = vld1q_s8(w + 48);
        const int8x16_t b0 = vld1q_s8(x), b1 = vld1q_s8(x + 16), b2 = vld1q_s8(x + 32), b3 = vld1q_s8(x + 48);
#define ROWS(i, av)                                \
    acc[i][0] = vmmlaq_s32(acc[i][0], av, b0);     \
    acc[i][1] = vmmlaq_s32(acc[i][1], av, b1);     \
    acc[i][2] = vmmlaq_s32(acc[i][2], av, b2);     \
    acc[i][3] = vmmlaq_s32(acc[i][3], av, b3);
        ROWS(0, a0) ROWS(1, a1) ROWS(2, a2) ROWS(3, a3)
#undef ROWS
        w += 8 * MR;
        x += 8 * NR;
    }
    for (size_t i = 0; i < 4 && 2 * i < mr; i++) {
        /* Row 2i: the low halves of the blocks; row 2i + 1: the high halves. */
        const int64x2_t p0 = vreinterpretq_s64_s32(acc[i][0]), p1 = vreinterpretq_s64_s32(acc[i][1]);
        const int64x2_t p2 = vreinterpretq_s64_s32(acc[i][2]), p3 = vreinterpretq_s64_s32(acc[i][3]);
        store_row(vreinterpretq_s32_s64(vzip1q_s64(p0, p1)), vreinterpretq_s32_s64(vzip1q_s64(p2, p3)), 2 * i, nr, rq,
                  c + 2 * i * ldc);
        if (2 * i + 1 < mr) {
            store_row(vreinterpretq_s32_s64(vzip2q_s64(p0, p1)), vreinterpretq_s32_s64(vzip2q_s64(p2, p3)), 2 * i + 1,
                      nr, rq, c + (2 * i + 1) * ldc);
        }
    }
}

#endif
