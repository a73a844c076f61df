/*
 * f32_gemm_8x32_avx512: an 8×32 tile in sixteen zmm accumulators. Per k: two
 * 16-float loads of B, eight broadcasts of A (folded into the FMAs), sixteen
 * FMAs. Measured alone (Benchmarks/, Microkernels) it runs at 95-99% of the
 * measured FMA peak on Zen 4 for kc 64-576, so no other tile can do much
 * better there; sixteen chains also cover the FMA latency of CPUs that run
 * two 512-bit FMAs per cycle (Zen 5). The Swift SIMD backend's measurements
 * settled on the same tile.
 */
#include "epilogue-avx512.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

/*
 * B read in place (1×1 convolutions: each k a row H·W floats from the last,
 * on its own page for large planes) comes from L2 row by row, which the
 * hardware prefetchers do not follow. The strided tile prefetches B into L1
 * this many rows ahead, running on into the next column panel (b + 32, the
 * caller's next tile) past its last row. Measured on Zen 4 (ResNet-50's 1×1
 * layers on 56×56 and 28×28, 1 thread): K 256 gains 4-5%, K 64 1.5-3%; 16
 * rows was 0.5% slower on K 256, and prefetching the whole next panel at once
 * slowed K 128 by 1.3% (two 16 KB panels do not share L1). Prefetching the
 * next tile's C rows as well (for writing) gained nothing on ResNet-50 and
 * cost MobileNetV2's expand layers (K 16-32, 96-192 outputs) 1-2%.
 */
enum { B_ROWS_AHEAD = 24 };

static inline FOVEA_TARGET_AVX512 __mmask16 lanes(size_t count) {
    return count >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << count) - 1u);
}

/*
 * How the tile applies its epilogue. Zen 4 runs MAXPS/MINPS on the FMA pipes,
 * so the clamps a plain ReLU (min with +inf) or no activation (both) leave
 * unchanged are skipped. Measured with clang on Zen 4, 1 thread: on
 * L1-resident data ReLU's two clamps cost 2.3% of a K 64 tile and 10% of a
 * K 16 one; alone (Kernels/tools/measure_pointwise) ResNet-50's K 64 1×1
 * layers gain 0.6-1.5%, a K 16 layer without activation 7%; in the network
 * ResNet-50's K 64 layers gain 0.2-1.5%. A Clip (MobileNetV2's ReLU6) needs
 * both clamps.
 */
typedef enum { EPILOGUE_NONE, EPILOGUE_RELU, EPILOGUE_FULL } epilogue_kind;

static epilogue_kind kind_of(const fovea_epilogue *e) {
    if (e == NULL) return EPILOGUE_NONE;
    if (e->leaky || e->hi != INFINITY) return EPILOGUE_FULL;
    if (e->relu) return e->lo == 0.0f ? EPILOGUE_RELU : EPILOGUE_FULL;
    return e->lo == -INFINITY ? EPILOGUE_NONE : EPILOGUE_FULL;
}

/* Stores one row of the tile: old C values, bias, epilogue, masked to the valid columns. */
static inline __attribute__((always_inline)) FOVEA_TARGET_AVX512 void store_row(float *row, __m512 v0, __m512 v1, __mmask16 m0, __mmask16 m1,
                                                 int accumulate, const float *bias, epilogue_kind kind,
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
    if (kind == EPILOGUE_RELU) {
        /* (v, 0): NaN becomes 0, as fovea_epilogue_avx512 with relu set. */
        v0 = _mm512_max_ps(v0, _mm512_setzero_ps());
        v1 = _mm512_max_ps(v1, _mm512_setzero_ps());
    } else if (kind == EPILOGUE_FULL) {
        v0 = fovea_epilogue_avx512(v0, e);
        v1 = fovea_epilogue_avx512(v1, e);
    }
    _mm512_mask_storeu_ps(row, m0, v0);
    _mm512_mask_storeu_ps(row + 16, m1, v1);
}

static inline __attribute__((always_inline)) FOVEA_TARGET_AVX512 void tile(
    size_t mr, size_t nr, size_t kc, const float *a, const float *b, size_t ldb, float *c, size_t ldc,
    const float *bias, int accumulate, const fovea_epilogue *epilogue, const float *prefetch, size_t prefetch_lines,
    int in_place) {
    __m512 c00 = _mm512_setzero_ps(), c01 = _mm512_setzero_ps(), c10 = _mm512_setzero_ps(), c11 = _mm512_setzero_ps();
    __m512 c20 = _mm512_setzero_ps(), c21 = _mm512_setzero_ps(), c30 = _mm512_setzero_ps(), c31 = _mm512_setzero_ps();
    __m512 c40 = _mm512_setzero_ps(), c41 = _mm512_setzero_ps(), c50 = _mm512_setzero_ps(), c51 = _mm512_setzero_ps();
    __m512 c60 = _mm512_setzero_ps(), c61 = _mm512_setzero_ps(), c70 = _mm512_setzero_ps(), c71 = _mm512_setzero_ps();
    /* At most a panel ahead: a short reduction (K 16) prefetches the whole next panel, row k at step k. */
    const size_t ahead_rows = kc < B_ROWS_AHEAD ? kc : B_ROWS_AHEAD;
    for (size_t k = 0; k < kc; k++) {
        if (k < prefetch_lines) _mm_prefetch((const char *)(prefetch + 16 * k), _MM_HINT_T1);
        if (in_place) {
            const float *ahead = k + ahead_rows < kc ? b + ahead_rows * ldb : b + 32 + (ahead_rows - kc) * ldb;
            _mm_prefetch((const char *)ahead, _MM_HINT_T0);
            _mm_prefetch((const char *)(ahead + 16), _MM_HINT_T0);
        }
        const __m512 b0 = _mm512_loadu_ps(b), b1 = _mm512_loadu_ps(b + 16);
        __m512 av;
#define FOVEA_ROW(r)                              \
    av = _mm512_set1_ps(a[r]);                    \
    c##r##0 = _mm512_fmadd_ps(av, b0, c##r##0);   \
    c##r##1 = _mm512_fmadd_ps(av, b1, c##r##1);
        FOVEA_ROW(0) FOVEA_ROW(1) FOVEA_ROW(2) FOVEA_ROW(3) FOVEA_ROW(4) FOVEA_ROW(5) FOVEA_ROW(6) FOVEA_ROW(7)
#undef FOVEA_ROW
        a += 8;
        b += ldb;
    }
    const __mmask16 m0 = lanes(nr), m1 = nr > 16 ? lanes(nr - 16) : 0;
    const __m512 rows[8][2] = {{c00, c01}, {c10, c11}, {c20, c21}, {c30, c31},
                               {c40, c41}, {c50, c51}, {c60, c61}, {c70, c71}};
    /*
     * Unrolled, so that the accumulators stay in registers (a loop over mr
     * rows spilled all sixteen), and the epilogue copied, so that the stores
     * cannot alias it and its fields are read once. Measured with clang on
     * Zen 4, 1 thread: MobileNetV2's expand layers (K 16-32) 4-7.5% faster,
     * ResNet-50's K 64 1×1 layers 2%, K 256 1%.
     */
    const fovea_epilogue e = epilogue != NULL ? *epilogue : fovea_epilogue_of(NULL);
    /* One unrolled store loop per kind, so that the kind is not tested per row. */
#define FOVEA_STORE_ROWS(KIND)                                                                            \
    _Pragma("GCC unroll 8") for (size_t r = 0; r < 8; r++) {                                             \
        if (r >= mr) break;                                                                               \
        store_row(c + r * ldc, rows[r][0], rows[r][1], m0, m1, accumulate, bias ? bias + r : NULL, KIND, &e); \
    }
    switch (kind_of(epilogue)) {
    case EPILOGUE_NONE: FOVEA_STORE_ROWS(EPILOGUE_NONE) break;
    case EPILOGUE_RELU: FOVEA_STORE_ROWS(EPILOGUE_RELU) break;
    case EPILOGUE_FULL: FOVEA_STORE_ROWS(EPILOGUE_FULL) break;
    }
#undef FOVEA_STORE_ROWS
}
FOVEA_TARGET_AVX512 void fovea_f32_gemm_8x32__avx512(size_t mr, size_t nr, size_t kc, const float *a, const float *b, float *c, size_t ldc,
                        const float *bias, int accumulate, const fovea_epilogue *epilogue) {
    tile(mr, nr, kc, a, b, 32, c, ldc, bias, accumulate, epilogue, NULL, 0, 0);
}

FOVEA_TARGET_AVX512 void fovea_f32_gemm_8x32__avx512_prefetch(size_t mr, size_t nr, size_t kc, const float *a,
                                                             const float *b, float *c, size_t ldc, const float *bias,
                                                             int accumulate, const fovea_epilogue *epilogue,
                                                             const float *prefetch, size_t prefetch_lines) {
    tile(mr, nr, kc, a, b, 32, c, ldc, bias, accumulate, epilogue, prefetch, prefetch_lines, 0);
}

FOVEA_TARGET_AVX512 void fovea_f32_gemm_8x32__avx512_strided(size_t mr, size_t kc, const float *a, const float *b, size_t ldb, float *c,
                        size_t ldc, const float *bias, int accumulate, const fovea_epilogue *epilogue) {
    tile(mr, 32, kc, a, b, ldb, c, ldc, bias, accumulate, epilogue, NULL, 0, 1);
}
#endif
