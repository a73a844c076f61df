/*
 * Internal pieces of the depthwise convolution: the variant signature, tap
 * arithmetic and the scalar per-output code every variant uses for its
 * borders. Not part of the public API.
 *
 * A variant computes output rows [oh_begin, oh_end) of one output plane from
 * one input plane, its kernel_height × kernel_width taps and its bias, then
 * applies the epilogue. Variants assume checked parameters (every size within
 * FOVEA_KERNELS_MAX_EXTENT, so int64_t arithmetic never overflows) and never
 * read outside the input plane: SIMD variants use masked loads for the lanes
 * that hang over the padding or past the row.
 */
#ifndef FOVEA_KERNELS_DEPTHWISE_H
#define FOVEA_KERNELS_DEPTHWISE_H

#include "fovea_kernels.h"
#include "../../runtime/runtime.h"
#include "../gemm/gemm.h" /* fovea_epilogue */

#include <stdint.h>

typedef void (*fovea_dwconv_fn)(const fovea_conv2d_params *p, const float *x, const float *w, float bias, float *y,
                                size_t oh_begin, size_t oh_end, const fovea_epilogue *e);

#define FOVEA_DWCONV_VARIANT(kind, isa)                                                                          \
    void fovea_f32_dwconv_##kind##__##isa(const fovea_conv2d_params *p, const float *x, const float *w, float bias, \
                                          float *y, size_t oh_begin, size_t oh_end, const fovea_epilogue *e);

#define FOVEA_DWCONV_VARIANTS(isa)         \
    FOVEA_DWCONV_VARIANT(3x3s1, isa) \
    FOVEA_DWCONV_VARIANT(3x3s2, isa) \
    FOVEA_DWCONV_VARIANT(kxk, isa)

FOVEA_DWCONV_VARIANTS(scalar)
#if FOVEA_HAVE_X86_VARIANTS
FOVEA_DWCONV_VARIANTS(avx2)
FOVEA_DWCONV_VARIANTS(avx512)
/* 5×5 and 7×7, stride 1 and 2 (the scalar code runs the k×k variant). */
FOVEA_DWCONV_VARIANT(5x5s1, avx2)
FOVEA_DWCONV_VARIANT(7x7s1, avx2)
FOVEA_DWCONV_VARIANT(5x5s2, avx2)
FOVEA_DWCONV_VARIANT(7x7s2, avx2)
FOVEA_DWCONV_VARIANT(5x5s1, avx512)
FOVEA_DWCONV_VARIANT(7x7s1, avx512)
FOVEA_DWCONV_VARIANT(5x5s2, avx512)
FOVEA_DWCONV_VARIANT(7x7s2, avx512)
#endif
#if FOVEA_HAVE_NEON_VARIANTS
FOVEA_DWCONV_VARIANTS(neon)
FOVEA_DWCONV_VARIANT(5x5s1, neon)
FOVEA_DWCONV_VARIANT(7x7s1, neon)
FOVEA_DWCONV_VARIANT(5x5s2, neon)
FOVEA_DWCONV_VARIANT(7x7s2, neon)
#endif

/* ---- Tap arithmetic --------------------------------------------------------- */

/* The taps [first, end) of one output position along one axis that lie inside the input. */
typedef struct fovea_dw_taps {
    int64_t first;
    int64_t end; /* end <= first: none */
} fovea_dw_taps;

static inline fovea_dw_taps fovea_dw_axis_taps(int64_t index, int64_t input_size, int64_t kernel, int64_t stride,
                                               int64_t dilation, int64_t pad) {
    const int64_t start = index * stride - pad;
    fovea_dw_taps taps;
    taps.first = start >= 0 ? 0 : (-start + dilation - 1) / dilation;
    const int64_t room = input_size - start;
    const int64_t end = room <= 0 ? 0 : (room + dilation - 1) / dilation;
    taps.end = end < kernel ? end : kernel;
    return taps;
}

/*
 * Lanes [lo, hi) of a row of `lanes` outputs whose tap reads an input column
 * inside [0, width): lane l reads column start + l*stride.
 */
typedef struct fovea_dw_lanes {
    int64_t lo;
    int64_t hi;
} fovea_dw_lanes;

static inline fovea_dw_lanes fovea_dw_valid_lanes(int64_t start, int64_t stride, int64_t width, int64_t lanes) {
    fovea_dw_lanes r;
    /* start + l*stride >= 0  <=>  l >= ceil(-start / stride) */
    r.lo = start >= 0 ? 0 : (-start + stride - 1) / stride;
    /* start + l*stride <= width - 1  <=>  l <= floor((width - 1 - start) / stride) */
    r.hi = start > width - 1 ? 0 : (width - 1 - start) / stride + 1;
    if (r.hi > lanes) r.hi = lanes;
    if (r.lo > r.hi) r.lo = r.hi;
    return r;
}

/* ---- Scalar per-output code (the scalar variants, and SIMD borders) ------------- */

/* One output (before the epilogue): bias plus the taps inside the input, row by row. */
static inline float fovea_dw_output(const fovea_conv2d_params *p, const float *x, const float *w, float bias,
                                    int64_t oh, int64_t ow) {
    const int64_t width = (int64_t)p->input_width, kw_count = (int64_t)p->kernel_width;
    const int64_t dh = (int64_t)p->dilation_height, dw = (int64_t)p->dilation_width;
    const fovea_dw_taps rows = fovea_dw_axis_taps(oh, (int64_t)p->input_height, (int64_t)p->kernel_height,
                                                  (int64_t)p->stride_height, dh, (int64_t)p->pad_top);
    const fovea_dw_taps cols = fovea_dw_axis_taps(ow, width, kw_count, (int64_t)p->stride_width, dw,
                                                  (int64_t)p->pad_left);
    const int64_t ih0 = oh * (int64_t)p->stride_height - (int64_t)p->pad_top;
    const int64_t iw0 = ow * (int64_t)p->stride_width - (int64_t)p->pad_left;
    float sum = bias;
    for (int64_t kh = rows.first; kh < rows.end; kh++) {
        const float *row = x + (ih0 + kh * dh) * width;
        const float *taps = w + kh * kw_count;
        for (int64_t kw = cols.first; kw < cols.end; kw++) sum += row[iw0 + kw * dw] * taps[kw];
    }
    return sum;
}

/* Output columns [begin, end) whose every tap lies inside the input row. */
static inline fovea_dw_lanes fovea_dw_interior_columns(const fovea_conv2d_params *p) {
    const int64_t width = (int64_t)p->input_width, out_width = (int64_t)p->output_width;
    const int64_t stride = (int64_t)p->stride_width, pad = (int64_t)p->pad_left;
    const int64_t span = ((int64_t)p->kernel_width - 1) * (int64_t)p->dilation_width;
    fovea_dw_lanes r;
    r.lo = (pad + stride - 1) / stride;
    const int64_t last_start = width - 1 + pad - span; /* largest ow*stride that fits */
    r.hi = last_start < 0 ? 0 : last_start / stride + 1;
    if (r.lo > out_width) r.lo = out_width;
    if (r.hi > out_width) r.hi = out_width;
    if (r.hi < r.lo) r.hi = r.lo;
    return r;
}

/* 1 if every tap row of output row oh lies inside the input. */
static inline int fovea_dw_row_inside(const fovea_conv2d_params *p, int64_t oh) {
    const int64_t ih0 = oh * (int64_t)p->stride_height - (int64_t)p->pad_top;
    const int64_t span = ((int64_t)p->kernel_height - 1) * (int64_t)p->dilation_height;
    return ih0 >= 0 && ih0 + span < (int64_t)p->input_height;
}

#endif
