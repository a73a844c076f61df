/*
 * Internal pieces shared by the pooling kernels: the per-ISA variant
 * signatures, window arithmetic and the scalar per-output computations that
 * every variant uses for border outputs. Not part of the public API.
 *
 * A variant computes one plane (one channel of one batch item); the exported
 * entry points check the arguments, pick the variant and run it over all
 * planes (in parallel with OpenMP). Variants assume checked parameters: every
 * window holds at least one input element and all sizes fit in int64_t.
 */
#ifndef FOVEA_KERNELS_POOLING_H
#define FOVEA_KERNELS_POOLING_H

#include "fovea_kernels.h"
#include "../runtime/runtime.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* ---- Variants ------------------------------------------------------------ */

/* 2-D pooling of one plane: x is input_height×input_width, y output_height×output_width. */
typedef void (*fovea_pool2d_plane_fn)(const fovea_pool2d_params *p, const float *x, float *y);

/* Global pooling of one plane of `count` >= 1 elements. */
typedef float (*fovea_global_pool_plane_fn)(size_t count, const float *x);

void fovea_maxpool2d_f32__scalar(const fovea_pool2d_params *p, const float *x, float *y);
void fovea_avgpool2d_f32__scalar(const fovea_pool2d_params *p, const float *x, float *y);
float fovea_global_maxpool_f32__scalar(size_t count, const float *x);
float fovea_global_avgpool_f32__scalar(size_t count, const float *x);

#if FOVEA_HAVE_X86_VARIANTS
void fovea_maxpool2d_f32__avx2(const fovea_pool2d_params *p, const float *x, float *y);
void fovea_avgpool2d_f32__avx2(const fovea_pool2d_params *p, const float *x, float *y);
float fovea_global_maxpool_f32__avx2(size_t count, const float *x);
float fovea_global_avgpool_f32__avx2(size_t count, const float *x);

void fovea_maxpool2d_f32__avx512(const fovea_pool2d_params *p, const float *x, float *y);
void fovea_avgpool2d_f32__avx512(const fovea_pool2d_params *p, const float *x, float *y);
float fovea_global_maxpool_f32__avx512(size_t count, const float *x);
float fovea_global_avgpool_f32__avx512(size_t count, const float *x);
#endif

/* ---- Max semantics ------------------------------------------------------- */

/* The quiet NaN every max kernel returns for a window holding a NaN. */
#define FOVEA_DEFAULT_NAN_BITS 0x7FC00000u

static inline float fovea_default_nan(void) {
    const uint32_t bits = FOVEA_DEFAULT_NAN_BITS;
    float value;
    memcpy(&value, &bits, sizeof value);
    return value;
}

/*
 * IEEE 754-2019 maximum of two non-NaN floats, with +0 > -0, so a reduction
 * gives the same bits in any order. (Callers track NaN separately.)
 */
static inline float fovea_maximum_f32(float a, float b) {
    if (a > b) return a;
    if (b > a) return b;
    /* Equal: only +0 / -0 differ in bits, and AND-ing their bits gives +0. */
    uint32_t ua, ub;
    memcpy(&ua, &a, sizeof ua);
    memcpy(&ub, &b, sizeof ub);
    ua &= ub;
    memcpy(&a, &ua, sizeof a);
    return a;
}

/* ---- Window arithmetic --------------------------------------------------- */

/* The taps of one window along one axis. */
typedef struct fovea_taps {
    int64_t first;  /* first tap inside the input */
    int64_t end;    /* one past the last tap inside the input (end <= first: none) */
    int64_t padded; /* taps 0 ..< padded lie inside input + pads (for count_include_pad) */
} fovea_taps;

/*
 * Output `index` along an axis starts at input position index*stride - pad_begin
 * and has `kernel` taps `dilation` apart.
 */
static inline fovea_taps fovea_axis_taps(int64_t index, int64_t input_size, int64_t kernel, int64_t stride,
                                         int64_t dilation, int64_t pad_begin, int64_t pad_end) {
    const int64_t start = index * stride - pad_begin;
    fovea_taps taps;
    taps.first = start >= 0 ? 0 : (-start + dilation - 1) / dilation;
    const int64_t room = input_size - start;
    const int64_t end = room <= 0 ? 0 : (room + dilation - 1) / dilation;
    taps.end = end < kernel ? end : kernel;
    const int64_t padded_room = input_size + pad_end - start;
    const int64_t padded = padded_room <= 0 ? 0 : (padded_room + dilation - 1) / dilation;
    taps.padded = padded < kernel ? padded : kernel;
    return taps;
}

static inline fovea_taps fovea_row_taps(const fovea_pool2d_params *p, int64_t oh) {
    return fovea_axis_taps(oh, (int64_t)p->input_height, (int64_t)p->kernel_height, (int64_t)p->stride_height,
                           (int64_t)p->dilation_height, (int64_t)p->pad_top, (int64_t)p->pad_bottom);
}

static inline fovea_taps fovea_column_taps(const fovea_pool2d_params *p, int64_t ow) {
    return fovea_axis_taps(ow, (int64_t)p->input_width, (int64_t)p->kernel_width, (int64_t)p->stride_width,
                           (int64_t)p->dilation_width, (int64_t)p->pad_left, (int64_t)p->pad_right);
}

/* Output columns [begin, end) whose every tap lies inside the input: the SIMD part of a row. */
typedef struct fovea_column_range {
    int64_t begin;
    int64_t end;
} fovea_column_range;

static inline fovea_column_range fovea_interior_columns(const fovea_pool2d_params *p) {
    const int64_t width = (int64_t)p->input_width, out_width = (int64_t)p->output_width;
    const int64_t stride = (int64_t)p->stride_width, pad = (int64_t)p->pad_left;
    const int64_t span = ((int64_t)p->kernel_width - 1) * (int64_t)p->dilation_width;
    fovea_column_range range;
    range.begin = (pad + stride - 1) / stride;
    const int64_t last_start = width - 1 + pad - span; /* largest ow*stride that fits */
    range.end = last_start < 0 ? 0 : last_start / stride + 1;
    if (range.begin > out_width) range.begin = out_width;
    if (range.end > out_width) range.end = out_width;
    if (range.end < range.begin) range.end = range.begin;
    return range;
}

/* ---- Scalar per-output computations (also the border path of SIMD variants) ---- */

/* Max over the window of output (oh, ow); `rows` are oh's row taps, input row ih0 is its start. */
static inline float fovea_maxpool2d_output(const fovea_pool2d_params *p, const float *x, fovea_taps rows,
                                           int64_t ih0, int64_t ow) {
    const int64_t width = (int64_t)p->input_width;
    const int64_t dh = (int64_t)p->dilation_height, dw = (int64_t)p->dilation_width;
    const fovea_taps cols = fovea_column_taps(p, ow);
    const int64_t iw0 = ow * (int64_t)p->stride_width - (int64_t)p->pad_left;
    float max = -INFINITY;
    int saw_nan = 0;
    for (int64_t kh = rows.first; kh < rows.end; kh++) {
        const int64_t row = (ih0 + kh * dh) * width + iw0; /* may be negative; row + kw*dw is not */
        for (int64_t kw = cols.first; kw < cols.end; kw++) {
            const float v = x[row + kw * dw];
            if (v != v) saw_nan = 1;
            else max = fovea_maximum_f32(max, v);
        }
    }
    return saw_nan ? fovea_default_nan() : max;
}

/* The divisor of an average-pooling window (see count_include_pad). */
static inline float fovea_avgpool2d_divisor(const fovea_pool2d_params *p, fovea_taps rows, fovea_taps cols) {
    const int64_t count = p->count_include_pad ? rows.padded * cols.padded
                                               : (rows.end - rows.first) * (cols.end - cols.first);
    return (float)count;
}

/* Average over the window of output (oh, ow), summed row by row in tap order. */
static inline float fovea_avgpool2d_output(const fovea_pool2d_params *p, const float *x, fovea_taps rows,
                                           int64_t ih0, int64_t ow) {
    const int64_t width = (int64_t)p->input_width;
    const int64_t dh = (int64_t)p->dilation_height, dw = (int64_t)p->dilation_width;
    const fovea_taps cols = fovea_column_taps(p, ow);
    const int64_t iw0 = ow * (int64_t)p->stride_width - (int64_t)p->pad_left;
    float sum = 0.0f;
    for (int64_t kh = rows.first; kh < rows.end; kh++) {
        const int64_t row = (ih0 + kh * dh) * width + iw0;
        for (int64_t kw = cols.first; kw < cols.end; kw++) sum += x[row + kw * dw];
    }
    return sum / fovea_avgpool2d_divisor(p, rows, cols);
}

#endif
