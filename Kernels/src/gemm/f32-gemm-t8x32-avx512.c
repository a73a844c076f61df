/*
 * f32_gemm_t8x32_avx512: the transposed tile for convolutions on small planes
 * (7×7, 13×13, 14×14). Pixels are the rows and output channels the vector
 * lanes: per k, two 16-float loads of the packed weights (32 channels) and up
 * to eight broadcast pixels, sixteen FMAs; the 8×32 result is transposed in
 * registers and stored into NCHW (channel j at c + j·ldc, pixel r at + r).
 *
 * Why: with channels as rows the pixels are the lanes, and a plane of 49 or
 * 169 pixels fills 32-wide panels only 77-88%; here a plane splits into
 * groups of 7-8 pixels (49 = 7·7, 169 = 15·8 + 7·7), and the weights, the
 * larger operand of these layers, stream through the lanes in order.
 *
 * The store is a fixed cost per tile, large next to short reductions: it
 * runs on 256-bit columns with the bias already in the accumulators and the
 * tile's arrays in registers (the first version spilled them to the stack
 * and did 512-bit work on 8-float columns). Measured on Zen 4, 1 thread:
 * ResNet-50's 14×14 256->1024 +add 0.99 -> 0.92 ms, 7×7 512->2048 +add
 * 0.93 -> 0.90, MobileNetV2's 7×7 and 14×14 pointwise layers 2-5% faster.
 */
#include "epilogue-avx2.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

/* 8 rows of 8 floats (row r: pixel r, 8 channels) -> out[j]: channel j, 8 pixels. */
static inline FOVEA_TARGET_AVX512 void transpose8(const __m256 in[8], __m256 out[8]) {
    const __m256 t0 = _mm256_unpacklo_ps(in[0], in[1]), t1 = _mm256_unpackhi_ps(in[0], in[1]);
    const __m256 t2 = _mm256_unpacklo_ps(in[2], in[3]), t3 = _mm256_unpackhi_ps(in[2], in[3]);
    const __m256 t4 = _mm256_unpacklo_ps(in[4], in[5]), t5 = _mm256_unpackhi_ps(in[4], in[5]);
    const __m256 t6 = _mm256_unpacklo_ps(in[6], in[7]), t7 = _mm256_unpackhi_ps(in[6], in[7]);
    const __m256 s0 = _mm256_shuffle_ps(t0, t2, 0x44), s1 = _mm256_shuffle_ps(t0, t2, 0xEE);
    const __m256 s2 = _mm256_shuffle_ps(t1, t3, 0x44), s3 = _mm256_shuffle_ps(t1, t3, 0xEE);
    const __m256 s4 = _mm256_shuffle_ps(t4, t6, 0x44), s5 = _mm256_shuffle_ps(t4, t6, 0xEE);
    const __m256 s6 = _mm256_shuffle_ps(t5, t7, 0x44), s7 = _mm256_shuffle_ps(t5, t7, 0xEE);
    out[0] = _mm256_permute2f128_ps(s0, s4, 0x20);
    out[1] = _mm256_permute2f128_ps(s1, s5, 0x20);
    out[2] = _mm256_permute2f128_ps(s2, s6, 0x20);
    out[3] = _mm256_permute2f128_ps(s3, s7, 0x20);
    out[4] = _mm256_permute2f128_ps(s0, s4, 0x31);
    out[5] = _mm256_permute2f128_ps(s1, s5, 0x31);
    out[6] = _mm256_permute2f128_ps(s2, s6, 0x31);
    out[7] = _mm256_permute2f128_ps(s3, s7, 0x31);
}

/*
 * Stores channel rows [8q, 8q + 8) ∩ [0, nr) of the tile (bias already in it): old C, epilogue, MR pixels.
 * The columns are 8 floats: 256-bit arithmetic, as 512-bit ops on them would do twice the work on Zen 4
 * (two halves); a full group of 8 pixels loads and stores without a mask. `e` is a copy on the stack, so
 * the stores cannot alias it and its fields stay in registers.
 */
static inline __attribute__((always_inline)) FOVEA_TARGET_AVX512 void store_channels(
    const size_t MR, const __m256 rows[8], size_t q, size_t nr, float *c, size_t ldc, int accumulate,
    const fovea_epilogue *e) {
    __m256 columns[8];
    transpose8(rows, columns);
    const __mmask16 mask = (__mmask16)((1u << MR) - 1u);
    const __m256i load_mask = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)MR), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
#pragma GCC unroll 8
    for (size_t j = 0; j < 8; j++) {
        if (8 * q + j >= nr) break;
        float *out = c + (8 * q + j) * ldc;
        __m256 v = columns[j];
        if (accumulate) v = _mm256_add_ps(v, MR == 8 ? _mm256_loadu_ps(out) : _mm256_maskload_ps(out, load_mask));
        v = fovea_epilogue_avx2(v, e);
        if (MR == 8) {
            _mm256_storeu_ps(out, v);
        } else {
            _mm512_mask_storeu_ps(out, mask, _mm512_castps256_ps512(v));
        }
    }
}

/* Channels [8q, 8q + 8) of the eight pixel rows: the low or high half of accumulator q / 2. */
static inline __attribute__((always_inline)) FOVEA_TARGET_AVX512 void store_quarter(
    const size_t MR, const __m512 acc[8][2], size_t q, size_t nr, float *c, size_t ldc, int accumulate,
    const fovea_epilogue *e) {
    __m256 rows[8];
#pragma GCC unroll 8
    for (size_t r = 0; r < 8; r++) {
        const __m512 v = acc[r][q / 2];
        rows[r] = q % 2 == 0 ? _mm512_castps512_ps256(v)
                             : _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1));
    }
    store_channels(MR, rows, q, nr, c, ldc, accumulate, e);
}

static inline FOVEA_TARGET_AVX512 __mmask16 lanes(size_t count) {
    return count >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << count) - 1u);
}

/*
 * The tile for a constant MR (the compiler drops the rows past it): named accumulators stay in registers.
 * They start from the bias (channels are lanes: two loads), not zero, which saves a broadcast and an add
 * per channel row of the store.
 */
static inline __attribute__((always_inline)) FOVEA_TARGET_AVX512 void tile(
    const size_t MR, size_t nr, size_t kc, const float *a, size_t lda, const float *b, float *c, size_t ldc,
    const float *bias, int accumulate, const fovea_epilogue *epilogue, const float *prefetch, size_t prefetch_lines) {
    const __m512 bias0 = bias != NULL ? _mm512_maskz_loadu_ps(lanes(nr), bias) : _mm512_setzero_ps();
    const __m512 bias1 = bias != NULL && nr > 16 ? _mm512_maskz_loadu_ps(lanes(nr - 16), bias + 16) : _mm512_setzero_ps();
    __m512 c00 = bias0, c01 = bias1, c10 = bias0, c11 = bias1, c20 = bias0, c21 = bias1, c30 = bias0, c31 = bias1;
    __m512 c40 = bias0, c41 = bias1, c50 = bias0, c51 = bias1, c60 = bias0, c61 = bias1, c70 = bias0, c71 = bias1;
    for (size_t k = 0; k < kc; k++) {
        if (k < prefetch_lines) _mm_prefetch((const char *)(prefetch + 16 * k), _MM_HINT_T1);
        const __m512 b0 = _mm512_loadu_ps(b), b1 = _mm512_loadu_ps(b + 16);
        __m512 av;
#define FOVEA_ROW(r)                                  \
    if (MR > r) {                                     \
        av = _mm512_set1_ps(a[r]);                    \
        c##r##0 = _mm512_fmadd_ps(av, b0, c##r##0);   \
        c##r##1 = _mm512_fmadd_ps(av, b1, c##r##1);   \
    }
        FOVEA_ROW(0) FOVEA_ROW(1) FOVEA_ROW(2) FOVEA_ROW(3) FOVEA_ROW(4) FOVEA_ROW(5) FOVEA_ROW(6) FOVEA_ROW(7)
#undef FOVEA_ROW
        a += lda;
        b += 32;
    }
    const __m512 acc[8][2] = {{c00, c01}, {c10, c11}, {c20, c21}, {c30, c31},
                              {c40, c41}, {c50, c51}, {c60, c61}, {c70, c71}};
    const fovea_epilogue e = epilogue != NULL ? *epilogue : fovea_epilogue_of(NULL);
    store_quarter(MR, acc, 0, nr, c, ldc, accumulate, &e);
    if (nr > 8) store_quarter(MR, acc, 1, nr, c, ldc, accumulate, &e);
    if (nr > 16) store_quarter(MR, acc, 2, nr, c, ldc, accumulate, &e);
    if (nr > 24) store_quarter(MR, acc, 3, nr, c, ldc, accumulate, &e);
}

FOVEA_TARGET_AVX512 void fovea_f32_gemm_t8x32__avx512(size_t mr, size_t nr, size_t kc, const float *a, size_t lda,
                                                     const float *b, float *c, size_t ldc, const float *bias,
                                                     int accumulate, const fovea_epilogue *epilogue,
                                                     const float *prefetch, size_t prefetch_lines) {
    switch (mr) {
    case 8: tile(8, nr, kc, a, lda, b, c, ldc, bias, accumulate, epilogue, prefetch, prefetch_lines); break;
    case 7: tile(7, nr, kc, a, lda, b, c, ldc, bias, accumulate, epilogue, prefetch, prefetch_lines); break;
    case 6: tile(6, nr, kc, a, lda, b, c, ldc, bias, accumulate, epilogue, prefetch, prefetch_lines); break;
    case 5: tile(5, nr, kc, a, lda, b, c, ldc, bias, accumulate, epilogue, prefetch, prefetch_lines); break;
    case 4: tile(4, nr, kc, a, lda, b, c, ldc, bias, accumulate, epilogue, prefetch, prefetch_lines); break;
    case 3: tile(3, nr, kc, a, lda, b, c, ldc, bias, accumulate, epilogue, prefetch, prefetch_lines); break;
    case 2: tile(2, nr, kc, a, lda, b, c, ldc, bias, accumulate, epilogue, prefetch, prefetch_lines); break;
    case 1: tile(1, nr, kc, a, lda, b, c, ldc, bias, accumulate, epilogue, prefetch, prefetch_lines); break;
    default: break;
    }
}
#endif
