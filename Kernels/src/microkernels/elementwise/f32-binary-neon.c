/*
 * Binary arithmetic loops with NEON: 16 outputs per iteration in four
 * q registers, 4 at a time after, the last 1-3 through a small buffer (NEON
 * has no masked loads). Bit-identical to the scalar variant: Max and Min are
 * comparisons and selects, since FMAX/FMIN return NaN for either NaN operand
 * and order the zeros, where the scalar rule keeps a NaN `a` and otherwise
 * picks by b >= a (b < a).
 */
#include "elementwise.h"
#include "../gemm/epilogue-neon.h"

#if FOVEA_HAVE_NEON_VARIANTS
#include <arm_neon.h>

static inline __attribute__((always_inline)) float32x4_t op_ps(fovea_binary_op op, float32x4_t a, float32x4_t b) {
    switch (op) {
    case FOVEA_BINARY_ADD: return vaddq_f32(a, b);
    case FOVEA_BINARY_SUB: return vsubq_f32(a, b);
    case FOVEA_BINARY_MUL: return vmulq_f32(a, b);
    case FOVEA_BINARY_DIV: return vdivq_f32(a, b);
    case FOVEA_BINARY_MAX:
    case FOVEA_BINARY_MIN: {
        const uint32x4_t b_nan = vmvnq_u32(vceqq_f32(b, b)), a_nan = vmvnq_u32(vceqq_f32(a, a));
        const uint32x4_t pick_b = vorrq_u32(op == FOVEA_BINARY_MAX ? vcgeq_f32(b, a) : vcltq_f32(b, a), b_nan);
        return vbslq_f32(a_nan, a, vbslq_f32(pick_b, b, a));
    }
    default: break;
    }
    return a;
}

static inline __attribute__((always_inline)) void loop(fovea_binary_op op, fovea_binary_form form,
                                                        fovea_epilogue_class kind, size_t n, const float *a,
                                                        const float *b, float *y, const fovea_epilogue *e) {
    const fovea_epilogue ep = *e; /* a local copy: stores to y cannot change it */
#define FINISH(v) (kind == FOVEA_EPILOGUE_APPLY ? fovea_epilogue_neon((v), &ep) : (v))
#define LOAD_A(at) (form == FOVEA_BINARY_SV ? sa : vld1q_f32(a + (at)))
#define LOAD_B(at) (form == FOVEA_BINARY_VS ? sb : vld1q_f32(b + (at)))
    const float32x4_t sa = vdupq_n_f32(form == FOVEA_BINARY_SV ? a[0] : 0.0f);
    const float32x4_t sb = vdupq_n_f32(form == FOVEA_BINARY_VS ? b[0] : 0.0f);
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        /* All loads before the stores: y may be a or b. */
        const float32x4_t a0 = LOAD_A(i), a1 = LOAD_A(i + 4), a2 = LOAD_A(i + 8), a3 = LOAD_A(i + 12);
        const float32x4_t b0 = LOAD_B(i), b1 = LOAD_B(i + 4), b2 = LOAD_B(i + 8), b3 = LOAD_B(i + 12);
        const float32x4_t y0 = op_ps(op, a0, b0), y1 = op_ps(op, a1, b1);
        const float32x4_t y2 = op_ps(op, a2, b2), y3 = op_ps(op, a3, b3);
        vst1q_f32(y + i, FINISH(y0));
        vst1q_f32(y + i + 4, FINISH(y1));
        vst1q_f32(y + i + 8, FINISH(y2));
        vst1q_f32(y + i + 12, FINISH(y3));
    }
    for (; i + 4 <= n; i += 4) {
        const float32x4_t v = op_ps(op, LOAD_A(i), LOAD_B(i));
        vst1q_f32(y + i, FINISH(v));
    }
    if (i < n) {
        /* Unused lanes divide 1 by 1. */
        const float32x4_t va = form == FOVEA_BINARY_SV ? sa : fovea_load_partial_neon(a + i, n - i, 1.0f);
        const float32x4_t vb = form == FOVEA_BINARY_VS ? sb : fovea_load_partial_neon(b + i, n - i, 1.0f);
        const float32x4_t v = op_ps(op, va, vb);
        fovea_store_partial_neon(y + i, FINISH(v), n - i);
    }
#undef FINISH
#undef LOAD_A
#undef LOAD_B
}

void fovea_f32_binary__neon(fovea_binary_op op, fovea_binary_form form, fovea_epilogue_class kind, size_t n,
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
