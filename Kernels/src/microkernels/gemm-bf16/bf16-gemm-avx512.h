/*
 * The body of the AVX-512 bf16 GEMM tiles (gemm-bf16.h): MR rows × 32
 * columns in 2·MR zmm accumulators. Per k-pair: two 64-byte loads of B (32
 * columns × a bf16 pair), one 32-bit broadcast of A per row (its pair), and
 * per row two pair products:
 *  - avx512bf16: vdpbf16ps (acc += a_odd·b_odd, then += a_even·b_even,
 *    denormal operands and results flushed to zero by the instruction);
 *  - avx512 (no bf16 hardware): the pairs widened to fp32 by shifts and masks
 *    and two FMAs in the same order (each bf16 product is exact in fp32, so
 *    one FMA rounds as vdpbf16ps's add does, denormals kept).
 * Include from one kernel file per tile, after defining FOVEA_BF16_TARGET and
 * FOVEA_BF16_DOT (1: vdpbf16ps, 0: FMAs).
 */
#ifndef FOVEA_KERNELS_BF16_GEMM_AVX512_H
#define FOVEA_KERNELS_BF16_GEMM_AVX512_H

#include "gemm-bf16.h"
#include "../gemm/epilogue-avx512.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

static inline __attribute__((always_inline)) FOVEA_BF16_TARGET __mmask16 bf16_lanes(size_t count) {
    return count >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << count) - 1u);
}

/* Old C, bias and epilogue on one row, masked to the valid columns. */
static inline __attribute__((always_inline)) FOVEA_BF16_TARGET void bf16_store_row(
    float *row, __m512 v0, __m512 v1, __mmask16 m0, __mmask16 m1, int accumulate, const float *bias,
    const fovea_epilogue *e) {
    if (accumulate) {
        v0 = _mm512_add_ps(v0, _mm512_maskz_loadu_ps(m0, row));
        v1 = _mm512_add_ps(v1, _mm512_maskz_loadu_ps(m1, row + 16));
    }
    if (bias != NULL) {
        const __m512 b = _mm512_set1_ps(*bias);
        v0 = _mm512_add_ps(v0, b);
        v1 = _mm512_add_ps(v1, b);
    }
    if (e != NULL) {
        v0 = fovea_epilogue_avx512(v0, e);
        v1 = fovea_epilogue_avx512(v1, e);
    }
    _mm512_mask_storeu_ps(row, m0, v0);
    _mm512_mask_storeu_ps(row + 16, m1, v1);
}

/* One MR×32 tile; MR a compile-time constant, so that the accumulators stay in registers. */
#define FOVEA_BF16_TILE(NAME, MR)                                                                                   \
    FOVEA_BF16_TARGET void NAME(size_t mr, size_t nr, size_t kc, const uint16_t *a, const uint16_t *b, float *c,   \
                                size_t ldc, const float *bias, int accumulate, const fovea_epilogue *epilogue) {   \
        __m512 acc[MR][2];                                                                                          \
        _Pragma("GCC unroll 16") for (size_t r = 0; r < MR; r++) {                                                  \
            acc[r][0] = _mm512_setzero_ps();                                                                        \
            acc[r][1] = _mm512_setzero_ps();                                                                        \
        }                                                                                                           \
        const uint32_t *a_pairs = (const uint32_t *)(const void *)a;                                                \
        for (size_t p = 0; p < kc; p += 2) {                                                                        \
            const __m512i b0 = _mm512_loadu_si512(b), b1 = _mm512_loadu_si512(b + 32);                             \
            FOVEA_BF16_STEP(MR)                                                                                     \
            a_pairs += MR;                                                                                          \
            b += 64;                                                                                                \
        }                                                                                                           \
        const __mmask16 m0 = bf16_lanes(nr), m1 = nr > 16 ? bf16_lanes(nr - 16) : 0;                                \
        const fovea_epilogue e = epilogue != NULL ? *epilogue : fovea_epilogue_of(NULL);                            \
        _Pragma("GCC unroll 16") for (size_t r = 0; r < MR; r++) {                                                  \
            if (r >= mr) break;                                                                                     \
            bf16_store_row(c + r * ldc, acc[r][0], acc[r][1], m0, m1, accumulate, bias ? bias + r : NULL,           \
                           epilogue ? &e : NULL);                                                                   \
        }                                                                                                           \
    }

#if FOVEA_BF16_DOT
#define FOVEA_BF16_STEP(MR)                                                                                       \
    _Pragma("GCC unroll 16") for (size_t r = 0; r < MR; r++) {                                                    \
        const __m512i av = _mm512_set1_epi32((int)a_pairs[r]);                                                    \
        acc[r][0] = _mm512_dpbf16_ps(acc[r][0], (__m512bh)av, (__m512bh)b0);                                      \
        acc[r][1] = _mm512_dpbf16_ps(acc[r][1], (__m512bh)av, (__m512bh)b1);                                      \
    }
#else
#define FOVEA_BF16_STEP(MR)                                                                                       \
    const __m512i high = _mm512_set1_epi32((int)0xFFFF0000u);                                                     \
    const __m512 b0_even = _mm512_castsi512_ps(_mm512_slli_epi32(b0, 16));                                        \
    const __m512 b0_odd = _mm512_castsi512_ps(_mm512_and_si512(b0, high));                                        \
    const __m512 b1_even = _mm512_castsi512_ps(_mm512_slli_epi32(b1, 16));                                        \
    const __m512 b1_odd = _mm512_castsi512_ps(_mm512_and_si512(b1, high));                                        \
    _Pragma("GCC unroll 16") for (size_t r = 0; r < MR; r++) {                                                    \
        const __m512i av = _mm512_set1_epi32((int)a_pairs[r]);                                                    \
        const __m512 a_even = _mm512_castsi512_ps(_mm512_slli_epi32(av, 16));                                     \
        const __m512 a_odd = _mm512_castsi512_ps(_mm512_and_si512(av, high));                                     \
        acc[r][0] = _mm512_fmadd_ps(a_even, b0_even, _mm512_fmadd_ps(a_odd, b0_odd, acc[r][0]));                  \
        acc[r][1] = _mm512_fmadd_ps(a_even, b1_even, _mm512_fmadd_ps(a_odd, b1_odd, acc[r][1]));                  \
    }
#endif

#endif
#endif
