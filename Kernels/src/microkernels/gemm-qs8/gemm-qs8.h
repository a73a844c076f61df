/*
 * Internal: the int8 GEMM microkernels (u8 activations × s8 weights, int32
 * sums, requantized to 8 bits in the epilogue) and the panel layouts they read.
 *
 * C[m][n] = requantize(Σ_k A[m][k] · B[k][n] + bias[m]) for an MR × NR tile:
 * A holds weights (rows = output channels), B activations (columns = output
 * pixels). Both are packed in k-groups (configs/config.h, fovea_qs8_gemm_config):
 *
 *  - A panel: for each group of `a_kr` k: MR rows × a_kr values, int8, or
 *    int16 where `a_int16` (the AVX2 tile broadcasts int16 pairs to vpmaddwd);
 *  - B panel: for each group of `b_kr` k: NR columns × b_kr bytes (uint8).
 *
 * k (the panel depth) is a multiple of the config's k_align; k past the
 * real K holds zero weights.
 */
#ifndef FOVEA_KERNELS_GEMM_QS8_H
#define FOVEA_KERNELS_GEMM_QS8_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "../../runtime/runtime.h"

/* The epilogue of rows [0, mr) of a tile: MLAS's requantization (fovea_qconv.h). */
typedef struct fovea_qs8_requant {
    const int32_t *bias;  /* per row: bias − x_zero_point · Σ_k w (packed, MR-padded) */
    const float *scale;   /* per row: (x_scale · w_scale) / y_scale */
    float min_less_zero_point; /* output_min − zero_point, in u8 terms */
    float max_less_zero_point;
    int32_t zero_point;   /* in u8 terms (an int8 output's + 128) */
    uint8_t output_xor;   /* 0x80 for int8 outputs: u8 v ↦ int8 v − 128 */
} fovea_qs8_requant;

struct fovea_qs8_gemm_config;

/*
 * One tile: rows [0, mr) and columns [0, nr) of C (mr <= MR, nr <= NR) at
 * c + m · ldc + n; the kernel may compute the full tile but stores only those.
 */
typedef void (*fovea_qs8_gemm_fn)(size_t mr, size_t nr, size_t k, const void *a, const uint8_t *b,
                                  const fovea_qs8_requant *rq, uint8_t *c, size_t ldc,
                                  const struct fovea_qs8_gemm_config *config);

/* MLAS's requantization of one int32 sum (the scalar form every kernel's vectors match). */
static inline uint8_t fovea_qs8_requantize(int32_t acc, int32_t bias, float scale, const fovea_qs8_requant *rq) {
    /* uint32 addition: wraps as MLAS's vpaddd does, without C's signed overflow. */
    const int32_t sum = (int32_t)((uint32_t)acc + (uint32_t)bias);
    float v = (float)sum * scale;
    v = v > rq->min_less_zero_point ? v : rq->min_less_zero_point; /* maxps(v, min): NaN cannot occur */
    v = v < rq->max_less_zero_point ? v : rq->max_less_zero_point;
    return (uint8_t)(((int32_t)nearbyintf(v) + rq->zero_point) ^ rq->output_xor);
}

/*
 * Packs rows [0, k) × columns [0, count) of k-major uint8 rows (src_stride
 * apart), each byte ^ flip, into B panels of nr columns and k-groups of b_kr,
 * k_padded deep; padding is 0.
 */
typedef void (*fovea_qs8_gemm_pack_b_fn)(size_t k, size_t k_padded, size_t count, const uint8_t *src,
                                         size_t src_stride, uint8_t flip, size_t nr, size_t b_kr, uint8_t *dst);
void fovea_qs8_gemm_pack_b__scalar(size_t k, size_t k_padded, size_t count, const uint8_t *src, size_t src_stride,
                                   uint8_t flip, size_t nr, size_t b_kr, uint8_t *dst);
#if FOVEA_HAVE_X86_VARIANTS
void fovea_qs8_gemm_pack_b__sse2(size_t k, size_t k_padded, size_t count, const uint8_t *src, size_t src_stride,
                                 uint8_t flip, size_t nr, size_t b_kr, uint8_t *dst);
#endif

/* Portable C over any layout (the config's MR, NR, a_kr, b_kr, a_int16). */
void fovea_qs8_gemm__scalar(size_t mr, size_t nr, size_t k, const void *a, const uint8_t *b,
                            const fovea_qs8_requant *rq, uint8_t *c, size_t ldc,
                            const struct fovea_qs8_gemm_config *config);

#if FOVEA_HAVE_NEON_VARIANTS
/* ARMv8.2 SDOT by lane on int8 activations (B packed as x ^ 0x80; the config's b_signed). */
void fovea_qs8_gemm_8x12c4__neondot(size_t mr, size_t nr, size_t k, const void *a, const uint8_t *b,
                                    const fovea_qs8_requant *rq, uint8_t *c, size_t ldc,
                                    const struct fovea_qs8_gemm_config *config);
/* ARMv8.6 SMMLA (i8mm): 2×2 blocks of 8-deep int8 products (B packed as x ^ 0x80; the config's b_signed). */
void fovea_qs8_gemm_8x8c8__neoni8mm(size_t mr, size_t nr, size_t k, const void *a, const uint8_t *b,
                                    const fovea_qs8_requant *rq, uint8_t *c, size_t ldc,
                                    const struct fovea_qs8_gemm_config *config);
#endif

#if FOVEA_HAVE_X86_VARIANTS
/* vpmovzxbw / int16 pairs / vpmaddwd: exact (|u8·s8 + u8·s8| < 2¹⁶), unlike vpmaddubsw's saturating pairs. */
void fovea_qs8_gemm_6x16c2__avx2(size_t mr, size_t nr, size_t k, const void *a, const uint8_t *b,
                                 const fovea_qs8_requant *rq, uint8_t *c, size_t ldc,
                                 const struct fovea_qs8_gemm_config *config);
/* 256-bit vpdpbusd (AVX-VNNI, VEX-encoded). */
void fovea_qs8_gemm_6x16c4__avxvnni(size_t mr, size_t nr, size_t k, const void *a, const uint8_t *b,
                                    const fovea_qs8_requant *rq, uint8_t *c, size_t ldc,
                                    const struct fovea_qs8_gemm_config *config);
/* 512-bit vpdpbusd (AVX512-VNNI). */
void fovea_qs8_gemm_8x32c4__avx512vnni(size_t mr, size_t nr, size_t k, const void *a, const uint8_t *b,
                                       const fovea_qs8_requant *rq, uint8_t *c, size_t ldc,
                                       const struct fovea_qs8_gemm_config *config);
/* AMX-INT8 tdpbusd: 2 × 2 tiles of 16 pixels × 16 channels (a_kr 4, b_kr 64). */
void fovea_qs8_gemm_32x32__amx(size_t mr, size_t nr, size_t k, const void *a, const uint8_t *b,
                               const fovea_qs8_requant *rq, uint8_t *c, size_t ldc,
                               const struct fovea_qs8_gemm_config *config);
#endif

#endif
