/*
 * The naive reference of each operation the C tests check, written once and
 * shared by every test: plain loops in the operation's definition order, in
 * double where the kernels' rounding is bounded rather than exact. The tests
 * compare every ISA variant with these.
 */
#ifndef FOVEA_KERNELS_TEST_REFERENCE_H
#define FOVEA_KERNELS_TEST_REFERENCE_H

#include "fovea_kernels.h"

#include <stddef.h>
#include <stdint.h>

/*
 * Convolution (grouped, strided, padded, dilated; depthwise is groups ==
 * channels), weights output_channels × channels/groups × KH × KW. Per output
 * (batch × output_channels × OH × OW, dense): sum = bias + Σ w·x in double,
 * before any activation, and magnitude = |bias| + Σ |w·x| (the scale of its
 * rounding error; magnitude may be NULL). bias may be NULL.
 */
void reference_conv2d(const fovea_conv2d_params *p, const float *w, const float *bias, const float *x, double *sum,
                      double *magnitude);

/*
 * 2-D pooling as FoveaCore's reference backend computes it, tap by tap: max
 * from -FLT_MAX, replaced by a tap only if larger (NaN never is; of equal
 * values the first stays); average summed in float from +0 in tap order, 0
 * for a window with nothing to divide by. Returns the number of windows that
 * hold no input element.
 */
long reference_pool2d(const fovea_pool2d_params *p, const float *x, float *y, int is_max);

/* Global max as Swift.max folds from -inf (NaN never replaces, of equal values the last stays). */
float reference_global_max(const float *x, size_t count);
/* Global average, summed in double. */
float reference_global_average(const float *x, size_t count);

/*
 * Softmax (or LogSoftmax with take_log) over the axis of an outer × axis ×
 * inner tensor, in double: NaN for every element of a slice holding NaN or
 * +inf, or only -inf. spread[i] = |x_i − max| of its slice (0 for infinities).
 */
void reference_softmax(size_t outer, size_t axis, size_t inner, const float *x, double *want, double *spread,
                       int take_log);

/* Σ a[k·a_stride]·b[k·b_stride] for k < n in double (one entry of a matrix product); magnitude Σ|…| (may be NULL). */
double reference_dot(size_t n, const float *a, size_t a_stride, const float *b, size_t b_stride, double *magnitude);

/* a op b with one float rounding, as the kernels compute it (ONNX Max/Min: NaN if either is). */
float reference_binary_op(fovea_binary_op op, float a, float b);

/*
 * y = a op b with ONNX broadcasting (rank ≤ 8), before any activation:
 * y's multi-index mapped into a and b (size-1 axes broadcast).
 */
void reference_binary(fovea_binary_op op, size_t a_rank, const size_t *a_shape, const float *a, size_t b_rank,
                      const size_t *b_shape, const float *b, size_t rank, const size_t *y_shape, float *y);

/* y = x·scale[c] + shift[c] per channel plane, each operation rounded to float (no activation). */
void reference_channel_affine(size_t batch, size_t channels, size_t plane, const float *x, const float *scale,
                              const float *shift, float *y);

/* The axis permutation y = transpose(x, perm) of a row-major `shape`, by an odometer over y. */
void reference_transpose(size_t rank, const size_t *shape, const size_t *perm, const float *x, float *y);

/*
 * fp32 -> bf16 as its definition reads: keep the upper 16 bits and round up
 * (away from zero in magnitude) when the dropped half is above 0x8000, or
 * exactly 0x8000 with an odd kept half; a NaN keeps its upper half with the
 * quiet bit (0x0040) set.
 */
uint16_t reference_bf16_from_f32(float value);

/*
 * QLinearConv as ONNX defines it and onnxruntime's MLAS rounds it, from the
 * definition (no sign-bit flip, no folded zero points): per output, acc = bias
 * + Σ (x − x_zero_point)·w over the taps inside x, in int64 then wrapped to
 * int32; v = float(acc) · ((x_scale · w_scale[m]) / y_scale), clamped in
 * float to [output_min − zp, output_max − zp], rounded half to even, + zp.
 * x and y are bytes of their types; image n of y at y + n·y_batch_stride.
 */
void reference_qconv2d(const fovea_conv2d_params *p, const fovea_qconv2d_quantization *q, const int8_t *w,
                       const int32_t *bias, const void *x, void *y, size_t y_batch_stride);

/* `value` rounded to bf16 and back to float (the value a bf16 kernel multiplies). */
float reference_round_to_bf16(float value);

#endif
