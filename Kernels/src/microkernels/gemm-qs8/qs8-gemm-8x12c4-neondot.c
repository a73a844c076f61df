/*
 * int8 GEMM tile for AArch64 with the ARMv8.2 dot product (SDOT): 8 rows × 12
 * columns, k in groups of 4, 24 int32 accumulators in q registers (the fp32
 * NEON tile's shape). Per k-group: two A vectors (4 rows × 4 int8 weights
 * each), three B vectors (4 columns × 4 activations), 24 SDOTs by lane.
 *
 * SDOT multiplies signed bytes, and the activations are uint8: this kernel's
 * config asks for B packed as x ^ 0x80 (x − 128 as int8) and for 128 · Σw
 * folded into each row's packed bias (b_signed, configs/config.h), so the
 * sums are the u8 × s8 ones exactly. (UDOT would need unsigned weights;
 * USDOT, which takes u8 × s8 directly, is ARMv8.6 i8mm.) The epilogue is
 * fovea_qs8_requantize's arithmetic on 4 lanes: FCVTNS rounds half to even as
 * nearbyintf does, and the narrowing truncates, exact here because the clamp
 * already put every value in [0, 255].
 */
#include "gemm-qs8.h"

#if FOVEA_HAVE_NEON_VARIANTS
#include <arm_neon.h>
#include <string.h>

enum { MR = 8, NR = 12 };

/* Row m's three accumulators requantized into 12 bytes. */
FOVEA_TARGET_NEON_DOTPROD static inline void requant_row(const int32x4_t acc[3], int32_t bias, float scale,
                                                         const fovea_qs8_requant *rq, uint8_t out[NR]) {
    const float32x4_t lo = vdupq_n_f32(rq->min_less_zero_point), hi = vdupq_n_f32(rq->max_less_zero_point);
    const int32x4_t zero_point = vdupq_n_s32(rq->zero_point);
    int32x4_t q[3];
    for (int j = 0; j < 3; j++) {
        float32x4_t v = vmulq_n_f32(vcvtq_f32_s32(vaddq_s32(acc[j], vdupq_n_s32(bias))), scale);
        v = vminq_f32(vmaxq_f32(v, lo), hi);
        q[j] = vaddq_s32(vcvtnq_s32_f32(v), zero_point);
    }
    const uint16x8_t q01 = vcombine_u16(vmovn_u32(vreinterpretq_u32_s32(q[0])), vmovn_u32(vreinterpretq_u32_s32(q[1])));
    const uint16x4_t q2 = vmovn_u32(vreinterpretq_u32_s32(q[2]));
    const uint8x16_t bytes = veorq_u8(vcombine_u8(vmovn_u16(q01), vmovn_u16(vcombine_u16(q2, q2))),
                                      vdupq_n_u8(rq->output_xor));
    uint8_t row[16];
    vst1q_u8(row, bytes);
    memcpy(out, row, NR);
}

FOVEA_TARGET_NEON_DOTPROD void fovea_qs8_gemm_8x12c4__neondot(size_t mr, size_t nr, size_t k, const void *a,
                                                              const uint8_t *b, const fovea_qs8_requant *rq,
                                                              uint8_t *c, size_t ldc,
                                                              const struct fovea_qs8_gemm_config *config) {
    (void)config;
    const int8_t *w = (const int8_t *)a;
    const int8_t *x = (const int8_t *)b; /* packed as x ^ 0x80: signed */
    int32x4_t acc[MR][3];
    for (int m = 0; m < MR; m++) acc[m][0] = acc[m][1] = acc[m][2] = vdupq_n_s32(0);
    for (size_t g = 0; g < k / 4; g++) {
        const int8x16_t a0 = vld1q_s8(w), a1 = vld1q_s8(w + 16);
        const int8x16_t b0 = vld1q_s8(x), b1 = vld1q_s8(x + 16), b2 = vld1q_s8(x + 32);
#define ROW(m, av, lane)                                          \
    acc[m][0] = vdotq_laneq_s32(acc[m][0], b0, av, lane);         \
    acc[m][1] = vdotq_laneq_s32(acc[m][1], b1, av, lane);         \
    acc[m][2] = vdotq_laneq_s32(acc[m][2], b2, av, lane);
        ROW(0, a0, 0) ROW(1, a0, 1) ROW(2, a0, 2) ROW(3, a0, 3)
        ROW(4, a1, 0) ROW(5, a1, 1) ROW(6, a1, 2) ROW(7, a1, 3)
#undef ROW
        w += 4 * MR;
        x += 4 * NR;
    }
    for (size_t m = 0; m < mr; m++) {
        uint8_t row[NR];
        requant_row(acc[m], rq->bias[m], rq->scale[m], rq, row);
        memcpy(c + m * ldc, row, nr);
    }
}

#endif
