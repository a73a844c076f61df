/*
 * fovea_elementwise.h — elementwise kernels and softmax (part of fovea_kernels.h).
 *
 * Binary arithmetic with NumPy / ONNX broadcasting, unary activations
 * (ReLU, Clip, LeakyReLU, Sigmoid) and Softmax / LogSoftmax, float32.
 * Each has scalar, AVX2 + FMA and AVX-512F variants picked at run time, and
 * runs on up to `threadpool->threads` threads of the caller's pool (NULL, 0
 * or 1 is the calling thread; small jobs stay on the calling thread).
 *
 * Unlike the other kernels, these allow in-place use: the output may be the
 * very same pointer as an input (see each function). Any other overlap of
 * input and output is FOVEA_STATUS_INVALID_PARAMETER.
 */
#ifndef FOVEA_ELEMENTWISE_H
#define FOVEA_ELEMENTWISE_H

#include "fovea_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Binary arithmetic with broadcasting                                      */
/* ------------------------------------------------------------------------ */

/** The largest tensor rank fovea_binary_f32 accepts. */
#define FOVEA_ELEMENTWISE_MAX_RANK 6

/**
 * y = a op b, elementwise (IEEE 754 single precision, round to nearest).
 * MAX and MIN give NaN when either operand is NaN (ONNX Max/Min); between
 * equal operands (+0 and -0) MAX returns b and MIN returns a. POW is the C
 * library's powf on every ISA (not vectorized: the same bits everywhere).
 */
typedef enum fovea_binary_op {
    FOVEA_BINARY_ADD = 0,
    FOVEA_BINARY_SUB = 1,
    FOVEA_BINARY_MUL = 2,
    FOVEA_BINARY_DIV = 3,
    FOVEA_BINARY_MAX = 4,
    FOVEA_BINARY_MIN = 5,
    FOVEA_BINARY_POW = 6
} fovea_binary_op;

/**
 * y = activation(a op b) with NumPy / ONNX multidirectional broadcasting.
 *
 * Shapes are row-major dense tensors of rank ≤ FOVEA_ELEMENTWISE_MAX_RANK
 * (a shape pointer may be NULL when its rank is 0: a scalar). Shapes are
 * aligned at their last dimension; a missing leading dimension counts as 1.
 * Each dimension of a and b must be equal or 1; y_rank must be
 * max(a_rank, b_rank) and y_shape the broadcast shape (anything else:
 * FOVEA_STATUS_INVALID_PARAMETER). A dimension of size 0 makes y empty:
 * FOVEA_STATUS_OK with no pointer read.
 *
 * In place: y may be the same pointer as a (or b) when that input has y's
 * shape (the residual `x += shortcut`). y == a with a broadcast a, or any
 * partial overlap, is FOVEA_STATUS_INVALID_PARAMETER.
 *
 * The arithmetic is one IEEE operation per element, so every ISA gives the
 * same bits. Fast paths (chosen after merging adjacent dimensions that
 * broadcast alike): same shapes (one contiguous loop), a scalar operand, and
 * a broadcast inner block such as a per-channel [1,C,1,1] against [N,C,H,W]
 * (a contiguous loop over H·W with one value of the channel); every other
 * pattern walks the merged dimensions with one of these three inner loops.
 *
 * `activation` (NULL: none) is applied to each result: Add + ReLU of a
 * residual block in one pass. Statuses: NULL_POINTER, INVALID_PARAMETER
 * (op, rank, shapes, activation kind, aliasing), TOO_LARGE.
 */
fovea_status fovea_binary_f32(fovea_binary_op op, size_t a_rank, const size_t *a_shape, const float *a,
                              size_t b_rank, const size_t *b_shape, const float *b, size_t y_rank,
                              const size_t *y_shape, float *y, const fovea_activation *activation, const fovea_threadpool *threadpool);

/* ------------------------------------------------------------------------ */
/* Unary activations                                                        */
/* ------------------------------------------------------------------------ */

/**
 * y[i] = activation(x[i]) for `count` elements: ReLU, Clip, LeakyReLU, exactly
 * as the fused activations (ReLU maps NaN to 0, Clip and LeakyReLU keep it;
 * bit-identical across ISAs). NULL or FOVEA_ACTIVATION_NONE copies x. y may
 * equal x (in place).
 */
fovea_status fovea_activation_f32(const fovea_activation *activation, size_t count, const float *x, float *y,
                                  const fovea_threadpool *threadpool);

/**
 * y[n, c, i] = activation(x[n, c, i] · scale[c] + shift[c]) for `batch`
 * images of `channels` planes of `plane` elements each (dense NCHW): an
 * inference BatchNormalization left as a node, with scale = γ/√(σ² + ε) and
 * shift = β − μ·scale computed by the caller, and an activation as in
 * fovea_activation_f32 (NULL: none). The multiply and the add are rounded
 * separately. y may equal x (in place); other overlaps are INVALID_PARAMETER.
 */
fovea_status fovea_channel_affine_f32(size_t batch, size_t channels, size_t plane, const float *x, const float *scale,
                                      const float *shift, float *y, const fovea_activation *activation,
                                      const fovea_threadpool *threadpool);

/**
 * y[i] = 1 / (1 + exp(-x[i])) for `count` elements. y may equal x.
 * Within 2 ulp of the correctly rounded result for every finite x, including
 * the subnormal results below x ≈ −87.3 (error within 2 units of 2⁻¹⁴⁹ there);
 * sigmoid(−inf) = 0, sigmoid(+inf) = 1, NaN gives NaN.
 */
fovea_status fovea_sigmoid_f32(size_t count, const float *x, float *y, const fovea_threadpool *threadpool);

/* ------------------------------------------------------------------------ */
/* Softmax                                                                  */
/* ------------------------------------------------------------------------ */

/**
 * Softmax (log == 0) or LogSoftmax (log != 0) along one axis of a dense
 * tensor seen as outer × axis × inner (inner = product of the dimensions after
 * the axis, outer = product of those before it; ONNX opset 13 semantics):
 *
 *   y[o, i, j] = exp(x[o, i, j] − m) / Σ_k exp(x[o, k, j] − m)        (softmax)
 *   y[o, i, j] = x[o, i, j] − m − log Σ_k exp(x[o, k, j] − m)          (log softmax)
 *
 * with m = max_k x[o, k, j]. Vectorized along inner when inner > 1, along the
 * axis when inner == 1 (class scores). y may equal x (in place).
 *
 * Special values, per slice (o, ·, j): −inf entries among finite ones give
 * exactly 0 (log: −inf); a NaN or a +inf anywhere in the slice makes the whole
 * slice NaN, and so does a slice of −inf only (0/0), as in NumPy.
 * Accuracy: softmax within (axis + 12 + |x − m|)·2⁻²⁴ relative of the exact
 * result (x − m is rounded to float, which matters only for tiny outputs of
 * wide spreads); log softmax within (axis + 12)·2⁻²⁴·(1 + |y|) absolute.
 *
 * Any of outer, axis, inner 0: FOVEA_STATUS_OK, nothing read. Statuses:
 * NULL_POINTER, INVALID_PARAMETER (partial overlap of x and y), TOO_LARGE.
 */
fovea_status fovea_softmax_f32(size_t outer, size_t axis, size_t inner, const float *x, float *y, int log,
                               const fovea_threadpool *threadpool);

#ifdef __cplusplus
}
#endif

#endif /* FOVEA_ELEMENTWISE_H */
