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
 * The store is a fixed cost per tile, large next to short reductions: the
 * bias is the accumulators' start, the transpose works a 16-channel half at
 * a time in 512-bit registers, the arithmetic after it on 256-bit columns
 * (the first version transposed four 8×8 quarters, spilled the tile to the
 * stack with both GCC and clang, and did 512-bit work on 8-float columns).
 * Measured on Zen 4, 1 thread, clang and GCC builds: ResNet-50's 14×14
 * 256->1024 +add 0.96-0.99 -> 0.91-0.92 ms, 7×7 512->2048 +add 0.92-0.93 ->
 * 0.90-0.91, MobileNetV2's 7×7 and 14×14 pointwise layers 1-5% faster.
 */
#include "epilogue-avx2.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

/*
 * Stores one channel's 8 pixels (bias already in them): old C, epilogue, MR pixels. 256-bit
 * arithmetic, as 512-bit ops on 8 floats would do twice the work on Zen 4 (two halves); a full
 * group of 8 pixels loads and stores without a mask.
 */
static inline __attribute__((always_inline)) FOVEA_TARGET_AVX512 void store_channel(
    const size_t MR, __m256 v, float *out, int accumulate, const fovea_epilogue *e) {
    if (accumulate) {
        const __m256i load_mask =
            _mm256_cmpgt_epi32(_mm256_set1_epi32((int)MR), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
        v = _mm256_add_ps(v, MR == 8 ? _mm256_loadu_ps(out) : _mm256_maskload_ps(out, load_mask));
    }
    v = fovea_epilogue_avx2(v, e);
    if (MR == 8) {
        _mm256_storeu_ps(out, v);
    } else {
        _mm512_mask_storeu_ps(out, (__mmask16)((1u << MR) - 1u), _mm512_castps256_ps512(v));
    }
}

/*
 * Stores channels [16h, 16h + 16) ∩ [0, nr) of the tile from r[p] (pixel p, those 16 channels).
 * The transpose runs in 512-bit registers: unpack and shuffle within 128-bit lanes give, per lane
 * L, channel 4L + i's pixels 0-3 (s[i]) and 4-7 (s[i + 4]); one two-source permute per lane pair
 * joins them into [channel 4L + i | channel 4L + 4 + i]. Working a half at a time frees its eight
 * accumulators as it goes, so the compiler need not spill (it did with four 8×8 quarters).
 */
static inline __attribute__((always_inline)) FOVEA_TARGET_AVX512 void store_half(
    const size_t MR, const __m512 r[8], size_t h, size_t nr, float *c, size_t ldc, int accumulate,
    const fovea_epilogue *e) {
    const __m512 t0 = _mm512_unpacklo_ps(r[0], r[1]), t1 = _mm512_unpackhi_ps(r[0], r[1]);
    const __m512 t2 = _mm512_unpacklo_ps(r[2], r[3]), t3 = _mm512_unpackhi_ps(r[2], r[3]);
    const __m512 t4 = _mm512_unpacklo_ps(r[4], r[5]), t5 = _mm512_unpackhi_ps(r[4], r[5]);
    const __m512 t6 = _mm512_unpacklo_ps(r[6], r[7]), t7 = _mm512_unpackhi_ps(r[6], r[7]);
    const __m512 s[8] = {_mm512_shuffle_ps(t0, t2, 0x44), _mm512_shuffle_ps(t0, t2, 0xEE),
                         _mm512_shuffle_ps(t1, t3, 0x44), _mm512_shuffle_ps(t1, t3, 0xEE),
                         _mm512_shuffle_ps(t4, t6, 0x44), _mm512_shuffle_ps(t4, t6, 0xEE),
                         _mm512_shuffle_ps(t5, t7, 0x44), _mm512_shuffle_ps(t5, t7, 0xEE)};
    /* Lanes [a.L0, b.L0, a.L1, b.L1] and [a.L2, b.L2, a.L3, b.L3] of (a, b) = (s[i], s[i + 4]). */
    const __m512i pair0 = _mm512_setr_epi32(0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23);
    const __m512i pair1 = _mm512_setr_epi32(8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31);
#pragma GCC unroll 4
    for (size_t i = 0; i < 4; i++) {
#pragma GCC unroll 2
        for (size_t pair = 0; pair < 2; pair++) {
            const __m512 w = _mm512_permutex2var_ps(s[i], pair == 0 ? pair0 : pair1, s[i + 4]);
            const size_t j0 = 16 * h + 8 * pair + i, j1 = j0 + 4;
            if (j0 < nr) store_channel(MR, _mm512_castps512_ps256(w), c + j0 * ldc, accumulate, e);
            if (j1 < nr) {
                const __m256 high = _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(w), 1));
                store_channel(MR, high, c + j1 * ldc, accumulate, e);
            }
        }
    }
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
    /* A copy of the epilogue: the stores cannot alias it, so its fields stay in registers. */
    const fovea_epilogue e = epilogue != NULL ? *epilogue : fovea_epilogue_of(NULL);
    const __m512 low[8] = {c00, c10, c20, c30, c40, c50, c60, c70};
    store_half(MR, low, 0, nr, c, ldc, accumulate, &e);
    if (nr > 16) {
        const __m512 high[8] = {c01, c11, c21, c31, c41, c51, c61, c71};
        store_half(MR, high, 1, nr, c, ldc, accumulate, &e);
    }
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
