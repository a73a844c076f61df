/*
 * Internal pieces of the elementwise kernels: variant signatures. Not part of
 * the public API.
 *
 * A binary variant runs one contiguous inner loop of n outputs in one of
 * three forms (both operands vectors, or one of them a single value repeated);
 * the exported entry point turns any broadcast into rows of such loops. Unary
 * variants run over a contiguous range. Variants assume checked arguments.
 */
#ifndef FOVEA_KERNELS_ELEMENTWISE_H
#define FOVEA_KERNELS_ELEMENTWISE_H

#include "fovea_kernels.h"
#include "../../runtime/runtime.h"
#include "../gemm/gemm.h" /* fovea_epilogue */

#include <math.h>
#include <stdint.h>

typedef enum fovea_binary_form {
    FOVEA_BINARY_VV = 0, /* y[i] = a[i] op b[i] */
    FOVEA_BINARY_VS = 1, /* y[i] = a[i] op b[0] */
    FOVEA_BINARY_SV = 2  /* y[i] = a[0] op b[i] */
} fovea_binary_form;

/* Whether a loop applies the epilogue (the loops are compiled both ways). */
typedef enum fovea_epilogue_class { FOVEA_EPILOGUE_NONE = 0, FOVEA_EPILOGUE_APPLY = 1 } fovea_epilogue_class;

static inline fovea_epilogue_class fovea_epilogue_class_of(const fovea_activation *activation) {
    return activation == NULL || activation->kind == FOVEA_ACTIVATION_NONE ? FOVEA_EPILOGUE_NONE : FOVEA_EPILOGUE_APPLY;
}

/* y may equal a or b (same index read, then written). */
typedef void (*fovea_binary_fn)(fovea_binary_op op, fovea_binary_form form, fovea_epilogue_class kind, size_t n,
                                const float *a, const float *b, float *y, const fovea_epilogue *e);
/* y[i] = epilogue(x[i]); y may equal x. */
typedef void (*fovea_activation_fn)(size_t n, const float *x, float *y, const fovea_epilogue *e);
/* y[i] = sigmoid(x[i]); y may equal x. */
typedef void (*fovea_sigmoid_fn)(size_t n, const float *x, float *y);
/* LayerNormalization of `rows` dense rows of n floats (bias may be NULL); y may equal x. */
typedef void (*fovea_layer_norm_fn)(size_t rows, size_t n, const float *x, const float *scale, const float *bias,
                                    float epsilon, float *y);
/* y[i] = fn(x[i]) (a checked kind; POWER only with the exponents vector-math.h handles); y may equal x. */
typedef void (*fovea_unary_fn)(const fovea_unary *fn, size_t n, const float *x, float *y);

#define FOVEA_ELEMENTWISE_VARIANTS(isa)                                                                       \
    void fovea_f32_binary__##isa(fovea_binary_op op, fovea_binary_form form, fovea_epilogue_class kind,      \
                                 size_t n, const float *a, const float *b, float *y, const fovea_epilogue *e); \
    void fovea_f32_activation__##isa(size_t n, const float *x, float *y, const fovea_epilogue *e);          \
    void fovea_f32_sigmoid__##isa(size_t n, const float *x, float *y);                                      \
    void fovea_f32_unary__##isa(const fovea_unary *fn, size_t n, const float *x, float *y);                   \
    void fovea_f32_layernorm_rows__##isa(size_t rows, size_t n, const float *x, const float *scale, const float *bias, \
                                      float epsilon, float *y);

FOVEA_ELEMENTWISE_VARIANTS(scalar)
#if FOVEA_HAVE_X86_VARIANTS
FOVEA_ELEMENTWISE_VARIANTS(avx2)
FOVEA_ELEMENTWISE_VARIANTS(avx512)
#endif
#if FOVEA_HAVE_NEON_VARIANTS
/* NEON has its own binary and activation loops; sigmoid, unary and LayerNorm run the portable ones. */
void fovea_f32_binary__neon(fovea_binary_op op, fovea_binary_form form, fovea_epilogue_class kind, size_t n,
                            const float *a, const float *b, float *y, const fovea_epilogue *e);
void fovea_f32_activation__neon(size_t n, const float *x, float *y, const fovea_epilogue *e);
#endif

/* The scalar operation (also the reference the SIMD variants match bit for bit). */
static inline float fovea_binary_apply(fovea_binary_op op, float a, float b) {
    switch (op) {
    case FOVEA_BINARY_ADD: return a + b;
    case FOVEA_BINARY_SUB: return a - b;
    case FOVEA_BINARY_MUL: return a * b;
    case FOVEA_BINARY_DIV: return a / b;
    /* NaN if either is; else b >= a ? b : a and b < a ? b : a (the reference's Swift.max / Swift.min). */
    case FOVEA_BINARY_MAX: return a != a ? a : b >= a || b != b ? b : a;
    case FOVEA_BINARY_MIN: return a != a ? a : b < a || b != b ? b : a;
    case FOVEA_BINARY_POW: return powf(a, b);
    }
    return a + b;
}

/* 1 if [p, p+n) and [q, q+m) (floats) share an address. */
static inline int fovea_ranges_overlap(const float *p, size_t n, const float *q, size_t m) {
    const uintptr_t a = (uintptr_t)p, b = (uintptr_t)q;
    return n != 0 && m != 0 && a < b + m * sizeof(float) && b < a + n * sizeof(float);
}

#endif
