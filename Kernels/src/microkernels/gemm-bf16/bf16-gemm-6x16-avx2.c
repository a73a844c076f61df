/*
 * bf16_gemm_6x16_avx2: bf16 weights on CPUs with AVX2 and FMA only (no
 * AVX-512): the fp32 6×16 tile's twelve ymm accumulators, fed from the same
 * bf16 pair panels as every other bf16 tile (gemm-bf16.h). Per k-pair the
 * odd products of all six rows go in first, then the even ones: the order
 * vdpbf16ps adds them in, and each bf16 product is exact in fp32, so every
 * FMA rounds as the scalar tile's add does (denormals kept, as there).
 * Doing the halves one after the other keeps the live registers at 16:
 * twelve accumulators, two widened B vectors, one A broadcast, one mask.
 */
#include "gemm-bf16.h"
#include "../gemm/epilogue-avx2.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

FOVEA_TARGET_AVX2 void fovea_bf16_gemm_6x16__avx2(size_t mr, size_t nr, size_t kc, const uint16_t *a,
                                                  const uint16_t *b, float *c, size_t ldc, const float *bias,
                                                  int accumulate, const fovea_epilogue *epilogue) {
    __m256 c00 = _mm256_setzero_ps(), c01 = _mm256_setzero_ps(), c10 = _mm256_setzero_ps(), c11 = _mm256_setzero_ps();
    __m256 c20 = _mm256_setzero_ps(), c21 = _mm256_setzero_ps(), c30 = _mm256_setzero_ps(), c31 = _mm256_setzero_ps();
    __m256 c40 = _mm256_setzero_ps(), c41 = _mm256_setzero_ps(), c50 = _mm256_setzero_ps(), c51 = _mm256_setzero_ps();
    const __m256i high = _mm256_set1_epi32((int)0xFFFF0000u);
    const int32_t *a_pairs = (const int32_t *)(const void *)a;
    for (size_t p = 0; p < kc; p += 2) {
        const __m256i b0 = _mm256_loadu_si256((const __m256i *)(const void *)b);
        const __m256i b1 = _mm256_loadu_si256((const __m256i *)(const void *)(b + 16));
        __m256i av;
        /* Odd k: the high half of each pair, masked in place. */
        __m256 bo0 = _mm256_castsi256_ps(_mm256_and_si256(b0, high));
        __m256 bo1 = _mm256_castsi256_ps(_mm256_and_si256(b1, high));
#define FOVEA_ODD(r)                                                                \
    av = _mm256_and_si256(_mm256_set1_epi32(a_pairs[r]), high);                     \
    c##r##0 = _mm256_fmadd_ps(_mm256_castsi256_ps(av), bo0, c##r##0);               \
    c##r##1 = _mm256_fmadd_ps(_mm256_castsi256_ps(av), bo1, c##r##1);
        FOVEA_ODD(0) FOVEA_ODD(1) FOVEA_ODD(2) FOVEA_ODD(3) FOVEA_ODD(4) FOVEA_ODD(5)
#undef FOVEA_ODD
        /* Even k: the low half, shifted up. */
        const __m256 be0 = _mm256_castsi256_ps(_mm256_slli_epi32(b0, 16));
        const __m256 be1 = _mm256_castsi256_ps(_mm256_slli_epi32(b1, 16));
#define FOVEA_EVEN(r)                                                               \
    av = _mm256_slli_epi32(_mm256_set1_epi32(a_pairs[r]), 16);                      \
    c##r##0 = _mm256_fmadd_ps(_mm256_castsi256_ps(av), be0, c##r##0);               \
    c##r##1 = _mm256_fmadd_ps(_mm256_castsi256_ps(av), be1, c##r##1);
        FOVEA_EVEN(0) FOVEA_EVEN(1) FOVEA_EVEN(2) FOVEA_EVEN(3) FOVEA_EVEN(4) FOVEA_EVEN(5)
#undef FOVEA_EVEN
        a_pairs += 6;
        b += 32;
    }
    const __m256i m0 = fovea_avx2_lanes(nr), m1 = fovea_avx2_lanes(nr > 8 ? nr - 8 : 0);
    const __m256 rows[6][2] = {{c00, c01}, {c10, c11}, {c20, c21}, {c30, c31}, {c40, c41}, {c50, c51}};
    const int full = nr == 16; /* plain stores for full rows: masked ones cost several times more */
    for (size_t r = 0; r < mr; r++) {
        float *row = c + r * ldc;
        const float *rb = bias ? bias + r : NULL;
        const __m256 v0 = fovea_avx2_finish(rows[r][0], row, m0, accumulate, rb, epilogue);
        const __m256 v1 = fovea_avx2_finish(rows[r][1], row + 8, m1, accumulate, rb, epilogue);
        if (full) {
            _mm256_storeu_ps(row, v0);
            _mm256_storeu_ps(row + 8, v1);
        } else {
            _mm256_maskstore_ps(row, m0, v0);
            _mm256_maskstore_ps(row + 8, m1, v1);
        }
    }
}
#endif
