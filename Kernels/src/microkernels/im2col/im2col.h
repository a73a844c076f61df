/*
 * Internal: the im2col packers and gathers the GEMM convolution's drivers
 * (operators/im2col-pack.c, conv2d.c, conv2d-pixel-rows.c) call through
 * the conv config (configs/config.h): each wider packer serves the shapes its
 * `_applies` predicate accepts.
 */
#ifndef FOVEA_KERNELS_IM2COL_H
#define FOVEA_KERNELS_IM2COL_H

#include "fovea_conv.h"
#include "../../runtime/runtime.h"

#include <stdint.h>

/* 3×3, stride 2, no dilation: the shape whose packers read each input row once for its three kw taps. */
static inline int fovea_conv_is_3x3_stride2(const fovea_conv2d_params *p) {
    return p->kernel_height == 3 && p->kernel_width == 3 && p->stride_height == 2 && p->stride_width == 2 &&
           p->dilation_height == 1 && p->dilation_width == 1;
}

/*
 * One output-row piece of a stride-2 tap, as the stride-2 gathers read it:
 * pixels [ow, ow + count) (count ≤ 16) of output row oh, tap (kh, kw). Pixel
 * i reads input column first + 2i of input row ih; the loads start at the
 * first column inside the row. Returns 0 when row ih lies in the padding;
 * otherwise `row_start` is that first column's index in the plane and
 * `column[i]` pixel i's column counted from it (-1: padding).
 */
static inline int fovea_stride2_row_piece(const fovea_conv2d_params *p, size_t kh, size_t kw, size_t oh, size_t ow,
                                          size_t count, size_t *row_start, int column[16]) {
    const int64_t width = (int64_t)p->input_width;
    const int64_t ih = (int64_t)(2 * oh + kh * p->dilation_height) - (int64_t)p->pad_top;
    if (ih < 0 || ih >= (int64_t)p->input_height) return 0;
    const int64_t first = (int64_t)(2 * ow + kw * p->dilation_width) - (int64_t)p->pad_left;
    const int64_t base = first < 0 ? 0 : first;
    for (size_t i = 0; i < count; i++) {
        const int64_t c = first + 2 * (int64_t)i;
        column[i] = c < 0 || c >= width ? -1 : (int)(c - base);
    }
    *row_start = (size_t)(ih * width + base);
    return 1;
}

/*
 * The im2col packing (operators/im2col-pack.c) for 3×3 stride-2 convolutions without left padding on
 * AVX-512, a whole output row at a time (f32-im2col-3x3s2-rows-avx512.c);
 * whether a shape and panel width take it.
 */
int fovea_im2col_3x3s2_rows_applies(const fovea_conv2d_params *p, size_t nr);
typedef void (*fovea_im2col_3x3s2_rows_fn)(const fovea_conv2d_params *p, const float *x, size_t image_stride,
                                           size_t n0, size_t nc, size_t nr, float *packed);
#if FOVEA_HAVE_X86_VARIANTS
void fovea_f32_im2col_3x3s2_rows__avx512(const fovea_conv2d_params *p, const float *x, size_t image_stride, size_t n0,
                                          size_t nc, size_t nr, float *packed);
#endif

/*
 * The im2col packing for 1×1 stride-2 convolutions on output rows of at least
 * 16 pixels into 32-column panels on AVX-512, half a panel per vector
 * (f32-im2col-stride2-panels-avx512.c); whether a shape and panel width take
 * it.
 */
int fovea_im2col_stride2_panels_applies(const fovea_conv2d_params *p, size_t nr);
typedef void (*fovea_im2col_stride2_panels_fn)(const fovea_conv2d_params *p, const float *x, size_t image_stride,
                                               size_t n0, size_t nc, float *packed);
#if FOVEA_HAVE_X86_VARIANTS
void fovea_f32_im2col_stride2_panels__avx512(const fovea_conv2d_params *p, const float *x, size_t image_stride,
                                              size_t n0, size_t nc, float *packed);
#endif

/*
 * Pixel-rows panels (K×8 per group of 8 output pixels) of stride-2
 * convolutions up to 3×3 with output rows of at least 7 pixels, gathered
 * straight from the input planes (f32-im2col-stride2-pixel-groups-avx512.c): whether a
 * shape takes it, and the packing of units [first, end) (unit n·C + c: image
 * n, channel c) for the `groups` groups of pixels [bounds[g], bounds[g + 1])
 * of each image.
 */
int fovea_im2col_stride2_pixel_groups_applies(const fovea_conv2d_params *p);
typedef void (*fovea_im2col_stride2_pixel_groups_fn)(const fovea_conv2d_params *p, const float *x,
                                                     const size_t *bounds, size_t groups, size_t first, size_t end,
                                                     float *workspace);
#if FOVEA_HAVE_X86_VARIANTS
void fovea_f32_im2col_stride2_pixel_groups__avx512(const fovea_conv2d_params *p, const float *x, const size_t *bounds,
                                             size_t groups, size_t first, size_t end, float *workspace);
#endif

/* dst[q] = src[2q] for q < count: the stride-2 gather of im2col rows, per ISA. */
typedef void (*fovea_gather_stride2_fn)(float *dst, const float *src, size_t count);
void fovea_f32_gather_stride2__scalar(float *dst, const float *src, size_t count);
#if FOVEA_HAVE_X86_VARIANTS
void fovea_f32_gather_stride2__avx512(float *dst, const float *src, size_t count);
#endif

/*
 * The im2col rows of the three taps kw = 0, 1, 2 of one input row for a 3×3
 * stride-2 pad-1 convolution: dst_kw[q] = row[start + 2q + kw − 1] for q < count
 * (start: twice the first output column), zero where that lies outside the
 * row's `width` values (nothing outside them is read).
 */
typedef void (*fovea_gather_stride2_taps3_fn)(float *dst0, float *dst1, float *dst2, const float *row, size_t width,
                                              size_t start, size_t count);
void fovea_f32_gather_stride2_taps3__scalar(float *dst0, float *dst1, float *dst2, const float *row, size_t width,
                                        size_t start, size_t count);
#if FOVEA_HAVE_X86_VARIANTS
void fovea_f32_gather_stride2_taps3__avx512(float *dst0, float *dst1, float *dst2, const float *row, size_t width,
                                        size_t start, size_t count);
#endif

#endif
