/*
 * f32_gemm_8x16_avx512: the narrow AVX-512 tile, eight zmm accumulators, for
 * B blocks of at most 16 columns: the ragged last panel of a convolution
 * (13×13 = 5 panels of 32 + 9 columns) and Winograd with few tiles (F(4) on
 * 13×13 has 16), where the 8×32 tile would compute half empty columns. Eight
 * independent FMA chains still cover the FMA latency on Zen 4 and Zen 5.
 * B rows are `ldb` floats apart, so it also reads the first 16 columns of a
 * 32-wide packed panel.
 */
#include "epilogue-avx512.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

static inline __attribute__((always_inline)) FOVEA_TARGET_AVX512 void tile(
    size_t mr, size_t nr, size_t kc, const float *a, const float *b, size_t ldb, float *c, size_t ldc,
    const float *bias, int accumulate, const fovea_epilogue *epilogue, const float *prefetch, size_t prefetch_lines) {
    __m512 c0 = _mm512_setzero_ps(), c1 = _mm512_setzero_ps(), c2 = _mm512_setzero_ps(), c3 = _mm512_setzero_ps();
    __m512 c4 = _mm512_setzero_ps(), c5 = _mm512_setzero_ps(), c6 = _mm512_setzero_ps(), c7 = _mm512_setzero_ps();
    for (size_t k = 0; k < kc; k++) {
        if (k < prefetch_lines) _mm_prefetch((const char *)(prefetch + 16 * k), _MM_HINT_T1);
        const __m512 bv = _mm512_loadu_ps(b);
        c0 = _mm512_fmadd_ps(_mm512_set1_ps(a[0]), bv, c0);
        c1 = _mm512_fmadd_ps(_mm512_set1_ps(a[1]), bv, c1);
        c2 = _mm512_fmadd_ps(_mm512_set1_ps(a[2]), bv, c2);
        c3 = _mm512_fmadd_ps(_mm512_set1_ps(a[3]), bv, c3);
        c4 = _mm512_fmadd_ps(_mm512_set1_ps(a[4]), bv, c4);
        c5 = _mm512_fmadd_ps(_mm512_set1_ps(a[5]), bv, c5);
        c6 = _mm512_fmadd_ps(_mm512_set1_ps(a[6]), bv, c6);
        c7 = _mm512_fmadd_ps(_mm512_set1_ps(a[7]), bv, c7);
        a += 8;
        b += ldb;
    }
    const __mmask16 mask = nr >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << nr) - 1u);
    const __m512 rows[8] = {c0, c1, c2, c3, c4, c5, c6, c7};
    for (size_t r = 0; r < mr; r++) {
        float *row = c + r * ldc;
        __m512 v = rows[r];
        if (accumulate) v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(mask, row));
        if (bias != NULL) v = _mm512_add_ps(v, _mm512_set1_ps(bias[r]));
        if (epilogue != NULL) v = fovea_epilogue_avx512(v, epilogue);
        _mm512_mask_storeu_ps(row, mask, v);
    }
}

FOVEA_TARGET_AVX512 void fovea_f32_gemm_8x16__avx512_ldb(size_t mr, size_t nr, size_t kc, const float *a,
                                                        const float *b, size_t ldb, float *c, size_t ldc,
                                                        const float *bias, int accumulate,
                                                        const fovea_epilogue *epilogue) {
    tile(mr, nr, kc, a, b, ldb, c, ldc, bias, accumulate, epilogue, NULL, 0);
}

FOVEA_TARGET_AVX512 void fovea_f32_gemm_8x16__avx512_prefetch(size_t mr, size_t nr, size_t kc, const float *a,
                                                             const float *b, float *c, size_t ldc, const float *bias,
                                                             int accumulate, const fovea_epilogue *epilogue,
                                                             const float *prefetch, size_t prefetch_lines) {
    tile(mr, nr, kc, a, b, 16, c, ldc, bias, accumulate, epilogue, prefetch, prefetch_lines);
}

FOVEA_TARGET_AVX512 void fovea_f32_gemm_8x16__avx512(size_t mr, size_t nr, size_t kc, const float *a, const float *b,
                                                    float *c, size_t ldc, const float *bias, int accumulate,
                                                    const fovea_epilogue *epilogue) {
    fovea_f32_gemm_8x16__avx512_ldb(mr, nr, kc, a, b, 16, c, ldc, bias, accumulate, epilogue);
}

FOVEA_TARGET_AVX512 void fovea_f32_gemm_8x16__avx512_strided(size_t mr, size_t kc, const float *a, const float *b,
                                                            size_t ldb, float *c, size_t ldc, const float *bias,
                                                            int accumulate, const fovea_epilogue *epilogue) {
    fovea_f32_gemm_8x16__avx512_ldb(mr, 16, kc, a, b, ldb, c, ldc, bias, accumulate, epilogue);
}
#endif
