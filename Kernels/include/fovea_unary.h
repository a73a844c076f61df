/*
 * fovea_unary.h — elementwise functions of one float32 tensor (part of
 * fovea_kernels.h): the transcendental activations (exp, log, tanh, erf,
 * sigmoid and everything built on them: SiLU, GELU, ELU, SELU, CELU,
 * Softplus, Mish) and the cheap ones (HardSigmoid, HardSwish, Abs, Neg,
 * Floor, Ceil, Sqrt, Reciprocal, ...), each with AVX-512F, AVX2 + FMA and
 * portable variants picked at run time, on up to `threadpool->threads` threads
 * of the caller's pool (NULL: the calling thread).
 *
 * The transcendentals are vectorized polynomial / rational approximations,
 * not libm. Error bounds, against the exact function of the float input
 * (computed in double), over every float including subnormals, ±inf and NaN
 * (checked by Kernels/tests/test_unary.c on a sweep of the whole float range):
 *
 *   exp, log, tanh           2 ulp (subnormal results: 2 units of 2^-149)
 *   sigmoid                  3 ulp
 *   erf                      8 ulp (the error is largest just below ±1)
 *   SiLU, GELU-tanh, Mish,   4 ulp or 2^-24·max(1, |x|) absolute, whichever
 *   Softplus, Softsign,      is larger
 *   HardSigmoid, HardSwish
 *   ELU, SELU, CELU          4 ulp or 2^-22·max(1, |x|) (e^x − 1 as the
 *                            ONNX formula writes it cancels near 0)
 *   GELU (erf form)          4 ulp or 2^-21·max(1, |x|) (1 + erf cancels
 *                            for negative x, as in every float GELU)
 *   abs, neg, floor, ceil    exact; sqrt, reciprocal 0.5 ulp; rsqrt 1.5 ulp
 *
 * log(0) = −inf and log(x < 0) = NaN; SiLU, GELU and Mish give 0 at −inf
 * (the limit, as the reference's Gelu and Mish do), Softsign ±1 at ±inf.
 * Every kind maps NaN to NaN; the exact results at ±inf (tanh ±1, erf ±1,
 * exp +inf / 0, sigmoid 1 / 0, GELU / SiLU x or 0, ...) are kept.
 */
#ifndef FOVEA_UNARY_H
#define FOVEA_UNARY_H

#include "fovea_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The function of fovea_unary_f32; parameters are read as listed. */
typedef enum fovea_unary_kind {
    FOVEA_UNARY_EXP = 0,
    /** log(x + alpha) (alpha: Core ML's epsilon, 0 for ONNX Log) */
    FOVEA_UNARY_LOG = 1,
    FOVEA_UNARY_TANH = 2,
    FOVEA_UNARY_ERF = 3,
    /** 1 / (1 + e^-x) */
    FOVEA_UNARY_SIGMOID = 4,
    /** x · sigmoid(x) (Swish) */
    FOVEA_UNARY_SILU = 5,
    /** x · (1 + erf(x / √2)) / 2 */
    FOVEA_UNARY_GELU_ERF = 6,
    /** x · (1 + tanh(√(2/π) (x + 0.044715 x³))) / 2 */
    FOVEA_UNARY_GELU_TANH = 7,
    /** x >= 0 ? x : alpha (e^x − 1) */
    FOVEA_UNARY_ELU = 8,
    /** x > 0 ? beta x : beta alpha (e^x − 1)  (beta: gamma) */
    FOVEA_UNARY_SELU = 9,
    /** max(0, x) + min(0, alpha (e^(x/alpha) − 1)) */
    FOVEA_UNARY_CELU = 10,
    /** log(1 + e^x) */
    FOVEA_UNARY_SOFTPLUS = 11,
    /** x / (1 + |x|) */
    FOVEA_UNARY_SOFTSIGN = 12,
    /** x · tanh(softplus(x)) */
    FOVEA_UNARY_MISH = 13,
    /** max(0, min(1, alpha x + beta)) */
    FOVEA_UNARY_HARD_SIGMOID = 14,
    /** x · max(0, min(1, x / 6 + 1/2)) */
    FOVEA_UNARY_HARD_SWISH = 15,
    FOVEA_UNARY_ABS = 16,
    FOVEA_UNARY_NEG = 17,
    FOVEA_UNARY_FLOOR = 18,
    FOVEA_UNARY_CEIL = 19,
    FOVEA_UNARY_SQRT = 20,
    /** 1 / (x + alpha) */
    FOVEA_UNARY_RECIPROCAL = 21,
    /** 1 / sqrt(x + alpha) */
    FOVEA_UNARY_RSQRT = 22,
    /** alpha x + beta */
    FOVEA_UNARY_LINEAR = 23,
    /** x ^ alpha (exponents 0.5, 1, 2, 3, -1 exactly; others through libm powf) */
    FOVEA_UNARY_POWER = 24,
    /** x > alpha ? x : 0 (ThresholdedRelu) */
    FOVEA_UNARY_THRESHOLDED_RELU = 25,
    /** max(alpha, x), NaN stays NaN (Core ML threshold) */
    FOVEA_UNARY_THRESHOLD = 26
} fovea_unary_kind;

/** The number of fovea_unary_kind values. */
#define FOVEA_UNARY_KIND_COUNT 27

/** One elementwise function and its parameters (unused ones are ignored). */
typedef struct fovea_unary {
    fovea_unary_kind kind;
    float alpha;
    float beta;
} fovea_unary;

/**
 * y[i] = f(x[i]) for `count` elements. y may equal x (in place); any other
 * overlap is FOVEA_STATUS_INVALID_PARAMETER. count 0: FOVEA_STATUS_OK,
 * nothing read. Statuses: NULL_POINTER, INVALID_PARAMETER (unknown kind,
 * overlap), TOO_LARGE.
 */
fovea_status fovea_unary_f32(const fovea_unary *function, size_t count, const float *x, float *y, const fovea_threadpool *threadpool);

/**
 * LayerNormalization over the last `inner` elements of `outer` rows (dense):
 * y = (x − mean) / sqrt(var + epsilon) · scale[j] + bias[j] (bias may be
 * NULL), with each row's mean and then the variance of the centered values
 * summed in float with one partial sum per vector lane. y may
 * equal x. Statuses as fovea_unary_f32 (inner 0 or outer 0: OK).
 */
fovea_status fovea_layer_norm_f32(size_t outer, size_t inner, const float *x, const float *scale, const float *bias,
                                  float epsilon, float *y, const fovea_threadpool *threadpool);

#ifdef __cplusplus
}
#endif

#endif /* FOVEA_UNARY_H */
