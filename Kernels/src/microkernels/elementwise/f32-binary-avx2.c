/*
 * Binary arithmetic loops with AVX2: 16 outputs per iteration, a masked tail
 * (maskload / maskstore never touch masked-off elements). Bit-identical to
 * the scalar variant, like the AVX-512 loops.
 */
#include "elementwise.h"
#include "../gemm/epilogue-avx2.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

static inline __attribute__((always_inline)) FOVEA_TARGET_AVX2 __m256 op_ps(fovea_binary_op op, __m256 a, __m256 b) {
    switch (op) {
    case FOVEA_BINARY_ADD: return _mm256_add_ps(a, b);
    case FOVEA_BINARY_SUB: return _mm256_sub_ps(a, b);
    case FOVEA_BINARY_MUL: return _mm256_mul_ps(a, b);
    case FOVEA_BINARY_DIV: return _mm256_div_ps(a, b);
    /* MAXPS/MINPS return their second operand for a NaN or equal pair: (a, b) and (b, a) give b >= a ? b : a and
     * b < a ? b : a, then NaN operands are put back, a's last (the scalar code returns a when both are NaN). */
    case FOVEA_BINARY_MAX: return _mm256_blendv_ps(_mm256_max_ps(a, b), a, _mm256_cmp_ps(a, a, _CMP_UNORD_Q));
    case FOVEA_BINARY_MIN: {
        const __m256 r = _mm256_blendv_ps(_mm256_min_ps(b, a), b, _mm256_cmp_ps(b, b, _CMP_UNORD_Q));
        return _mm256_blendv_ps(r, a, _mm256_cmp_ps(a, a, _CMP_UNORD_Q));
    }
    default: break;
    }
    return a;
}

/* All-ones in the lowest `count` lanes (count < 8). */
static inline FOVEA_TARGET_AVX2 __m256i low_lanes(size_t count) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)count), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

static inline __attribute__((always_inline)) FOVEA_TARGET_AVX2 void
loop(fovea_binary_op op, fovea_binary_form form, fovea_epilogue_class kind, size_t n, const float *a, const float *b,
     float *y, const fovea_epilogue *e) {
    const fovea_epilogue ep = *e; /* a local copy: stores to y cannot change it */
#define FINISH(v) (kind == FOVEA_EPILOGUE_APPLY ? fovea_epilogue_avx2((v), &ep) : (v))
    const __m256 sa = form == FOVEA_BINARY_SV ? _mm256_set1_ps(a[0]) : _mm256_setzero_ps();
    const __m256 sb = form == FOVEA_BINARY_VS ? _mm256_set1_ps(b[0]) : _mm256_setzero_ps();
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m256 a0 = form == FOVEA_BINARY_SV ? sa : _mm256_loadu_ps(a + i);
        const __m256 a1 = form == FOVEA_BINARY_SV ? sa : _mm256_loadu_ps(a + i + 8);
        const __m256 b0 = form == FOVEA_BINARY_VS ? sb : _mm256_loadu_ps(b + i);
        const __m256 b1 = form == FOVEA_BINARY_VS ? sb : _mm256_loadu_ps(b + i + 8);
        const __m256 y0 = op_ps(op, a0, b0), y1 = op_ps(op, a1, b1);
        _mm256_storeu_ps(y + i, FINISH(y0));
        _mm256_storeu_ps(y + i + 8, FINISH(y1));
    }
    for (; i + 8 <= n; i += 8) {
        const __m256 va = form == FOVEA_BINARY_SV ? sa : _mm256_loadu_ps(a + i);
        const __m256 vb = form == FOVEA_BINARY_VS ? sb : _mm256_loadu_ps(b + i);
        const __m256 v = op_ps(op, va, vb);
        _mm256_storeu_ps(y + i, FINISH(v));
    }
    if (i < n) {
        const __m256i m = low_lanes(n - i);
        const __m256 va = form == FOVEA_BINARY_SV ? sa : _mm256_maskload_ps(a + i, m);
        /* Masked-off lanes divide 0 by 1. */
        const __m256 vb = form == FOVEA_BINARY_VS
                              ? sb
                              : _mm256_blendv_ps(_mm256_set1_ps(1.0f), _mm256_maskload_ps(b + i, m),
                                                 _mm256_castsi256_ps(m));
        const __m256 v = op_ps(op, va, vb);
        _mm256_maskstore_ps(y + i, m, FINISH(v));
    }
#undef FINISH
}

FOVEA_TARGET_AVX2
void fovea_f32_binary__avx2(fovea_binary_op op, fovea_binary_form form, fovea_epilogue_class kind, size_t n,
                            const float *a, const float *b, float *y, const fovea_epilogue *e) {
#define CASE(o, f, k)                                                                                \
    case (o) * 6 + (f) * 2 + (k):                                                                     \
        loop((fovea_binary_op)(o), (fovea_binary_form)(f), (fovea_epilogue_class)(k), n, a, b, y, e); \
        break;
#define CASES_F(o, f) CASE(o, f, 0) CASE(o, f, 1)
#define CASES_O(o) CASES_F(o, 0) CASES_F(o, 1) CASES_F(o, 2)
    switch ((int)op * 6 + (int)form * 2 + (int)kind) {
        CASES_O(0) CASES_O(1) CASES_O(2) CASES_O(3) CASES_O(4) CASES_O(5)
    default: fovea_f32_binary__scalar(op, form, kind, n, a, b, y, e); break; /* POW: powf per element */
    }
#undef CASE
#undef CASES_F
#undef CASES_O
}

#endif
