/*
 * Binary arithmetic loops in portable C: one loop per (op, form, epilogue or
 * not) through an inlined generic body, so each loop is branch-free inside.
 */
#include "elementwise.h"

static inline __attribute__((always_inline)) void loop(fovea_binary_op op, fovea_binary_form form,
                                                        fovea_epilogue_class kind, size_t n, const float *a,
                                                        const float *b, float *y, const fovea_epilogue *e) {
    const fovea_epilogue ep = *e; /* a local copy: stores to y cannot change it */
    const float sa = form == FOVEA_BINARY_SV ? a[0] : 0.0f;
    const float sb = form == FOVEA_BINARY_VS ? b[0] : 0.0f;
    for (size_t i = 0; i < n; i++) {
        const float va = form == FOVEA_BINARY_SV ? sa : a[i];
        const float vb = form == FOVEA_BINARY_VS ? sb : b[i];
        const float v = fovea_binary_apply(op, va, vb);
        y[i] = kind == FOVEA_EPILOGUE_APPLY ? fovea_epilogue_apply(&ep, v) : v;
    }
}

void fovea_f32_binary__scalar(fovea_binary_op op, fovea_binary_form form, fovea_epilogue_class kind, size_t n,
                              const float *a, const float *b, float *y, const fovea_epilogue *e) {
#define CASE(o, f, k)                                                                                \
    case (o) * 6 + (f) * 2 + (k):                                                                     \
        loop((fovea_binary_op)(o), (fovea_binary_form)(f), (fovea_epilogue_class)(k), n, a, b, y, e); \
        break;
#define CASES_F(o, f) CASE(o, f, 0) CASE(o, f, 1)
#define CASES_O(o) CASES_F(o, 0) CASES_F(o, 1) CASES_F(o, 2)
    switch ((int)op * 6 + (int)form * 2 + (int)kind) {
        CASES_O(0) CASES_O(1) CASES_O(2) CASES_O(3) CASES_O(4) CASES_O(5)
        CASES_O(6)
    default: break;
    }
#undef CASE
#undef CASES_F
#undef CASES_O
}
