/*
 * Binary arithmetic loops with AVX-512: 32 outputs per iteration, a masked
 * tail. One IEEE operation per element and the shared epilogue
 * (../gemm/epilogue-avx512.h, the same results as fovea_epilogue_apply), so
 * the results match the scalar variant bit for bit.
 */
#include "elementwise.h"
#include "../gemm/epilogue-avx512.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

static inline __attribute__((always_inline)) FOVEA_TARGET_AVX512 __m512 op_ps(fovea_binary_op op, __m512 a, __m512 b) {
    switch (op) {
    case FOVEA_BINARY_ADD: return _mm512_add_ps(a, b);
    case FOVEA_BINARY_SUB: return _mm512_sub_ps(a, b);
    case FOVEA_BINARY_MUL: return _mm512_mul_ps(a, b);
    case FOVEA_BINARY_DIV: return _mm512_div_ps(a, b);
    /* MAXPS/MINPS return their second operand for a NaN or equal pair: (a, b) and (b, a) give b >= a ? b : a and
     * b < a ? b : a, then NaN operands are put back, a's last (the scalar code returns a when both are NaN). */
    case FOVEA_BINARY_MAX:
        return _mm512_mask_mov_ps(_mm512_max_ps(a, b), _mm512_cmp_ps_mask(a, a, _CMP_UNORD_Q), a);
    case FOVEA_BINARY_MIN: {
        const __m512 r = _mm512_mask_mov_ps(_mm512_min_ps(b, a), _mm512_cmp_ps_mask(b, b, _CMP_UNORD_Q), b);
        return _mm512_mask_mov_ps(r, _mm512_cmp_ps_mask(a, a, _CMP_UNORD_Q), a);
    }
    default: break;
    }
    return a;
}

static inline FOVEA_TARGET_AVX512 __mmask16 low_lanes(size_t count) {
    return count >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << count) - 1u);
}

static inline __attribute__((always_inline)) FOVEA_TARGET_AVX512 void
loop(fovea_binary_op op, fovea_binary_form form, fovea_epilogue_class kind, size_t n, const float *a, const float *b,
     float *y, const fovea_epilogue *e) {
    const fovea_epilogue ep = *e; /* a local copy: stores to y cannot change it */
#define FINISH(v) (kind == FOVEA_EPILOGUE_APPLY ? fovea_epilogue_avx512((v), &ep) : (v))
    const __m512 sa = form == FOVEA_BINARY_SV ? _mm512_set1_ps(a[0]) : _mm512_setzero_ps();
    const __m512 sb = form == FOVEA_BINARY_VS ? _mm512_set1_ps(b[0]) : _mm512_setzero_ps();
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        const __m512 a0 = form == FOVEA_BINARY_SV ? sa : _mm512_loadu_ps(a + i);
        const __m512 a1 = form == FOVEA_BINARY_SV ? sa : _mm512_loadu_ps(a + i + 16);
        const __m512 b0 = form == FOVEA_BINARY_VS ? sb : _mm512_loadu_ps(b + i);
        const __m512 b1 = form == FOVEA_BINARY_VS ? sb : _mm512_loadu_ps(b + i + 16);
        const __m512 y0 = op_ps(op, a0, b0), y1 = op_ps(op, a1, b1);
        _mm512_storeu_ps(y + i, FINISH(y0));
        _mm512_storeu_ps(y + i + 16, FINISH(y1));
    }
    for (; i < n; i += 16) {
        const __mmask16 m = low_lanes(n - i);
        const __m512 va = form == FOVEA_BINARY_SV ? sa : _mm512_maskz_loadu_ps(m, a + i);
        /* Masked-off lanes divide 0 by 1, raising no flag. */
        const __m512 vb = form == FOVEA_BINARY_VS ? sb : _mm512_mask_loadu_ps(_mm512_set1_ps(1.0f), m, b + i);
        const __m512 v = op_ps(op, va, vb);
        _mm512_mask_storeu_ps(y + i, m, FINISH(v));
    }
#undef FINISH
}

FOVEA_TARGET_AVX512
void fovea_f32_binary__avx512(fovea_binary_op op, fovea_binary_form form, fovea_epilogue_class kind, size_t n,
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
