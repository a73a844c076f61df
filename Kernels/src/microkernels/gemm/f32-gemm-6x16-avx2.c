/*
 * f32_gemm_6x16_avx2: a 6×16 tile in twelve ymm accumulators (of 16), the
 * classic AVX2 shape: per k two 8-float loads of B, six broadcasts of A,
 * twelve FMAs.
 */
#include "epilogue-avx2.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

static inline __attribute__((always_inline)) FOVEA_TARGET_AVX2 void tile(size_t mr, size_t nr, size_t kc, const float *a, const float *b, size_t ldb,
                                                float *c, size_t ldc, const float *bias, int accumulate,
                                                const fovea_epilogue *epilogue) {
    __m256 c00 = _mm256_setzero_ps(), c01 = _mm256_setzero_ps(), c10 = _mm256_setzero_ps(), c11 = _mm256_setzero_ps();
    __m256 c20 = _mm256_setzero_ps(), c21 = _mm256_setzero_ps(), c30 = _mm256_setzero_ps(), c31 = _mm256_setzero_ps();
    __m256 c40 = _mm256_setzero_ps(), c41 = _mm256_setzero_ps(), c50 = _mm256_setzero_ps(), c51 = _mm256_setzero_ps();
    for (size_t k = 0; k < kc; k++) {
        const __m256 b0 = _mm256_loadu_ps(b), b1 = _mm256_loadu_ps(b + 8);
        __m256 av;
#define FOVEA_ROW(r)                              \
    av = _mm256_broadcast_ss(a + r);              \
    c##r##0 = _mm256_fmadd_ps(av, b0, c##r##0);   \
    c##r##1 = _mm256_fmadd_ps(av, b1, c##r##1);
        FOVEA_ROW(0) FOVEA_ROW(1) FOVEA_ROW(2) FOVEA_ROW(3) FOVEA_ROW(4) FOVEA_ROW(5)
#undef FOVEA_ROW
        a += 6;
        b += ldb;
    }
    const __m256i m0 = fovea_avx2_lanes(nr), m1 = fovea_avx2_lanes(nr > 8 ? nr - 8 : 0);
    const __m256 rows[6][2] = {{c00, c01}, {c10, c11}, {c20, c21}, {c30, c31}, {c40, c41}, {c50, c51}};
    /* VMASKMOVPS stores cost about 5× a plain store on Zen 4: full rows use plain ones. */
    const int full = nr == 16;
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
FOVEA_TARGET_AVX2 void fovea_f32_gemm_6x16__avx2(size_t mr, size_t nr, size_t kc, const float *a, const float *b, float *c, size_t ldc,
                        const float *bias, int accumulate, const fovea_epilogue *epilogue) {
    tile(mr, nr, kc, a, b, 16, c, ldc, bias, accumulate, epilogue);
}

FOVEA_TARGET_AVX2 void fovea_f32_gemm_6x16__avx2_strided(size_t mr, size_t kc, const float *a, const float *b, size_t ldb, float *c,
                        size_t ldc, const float *bias, int accumulate, const fovea_epilogue *epilogue) {
    tile(mr, 16, kc, a, b, ldb, c, ldc, bias, accumulate, epilogue);
}
#endif
