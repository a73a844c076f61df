/*
 * Internal: the GEMM convolution's packed-weight header and its input packing
 * (1×1 planes or im2col, straight into the microkernel's column panels).
 */
#ifndef FOVEA_KERNELS_CONV_H
#define FOVEA_KERNELS_CONV_H

#include "../gemm/gemm.h"

#include <stdint.h>

#define FOVEA_CONV_MAGIC 0x47564346u /* "FCVG" */

/*
 * The start of a packed buffer: what it was packed for. The A panels of each
 * group follow at the first 64-byte boundary, `group_floats` apart, then the
 * bias (output_channels floats, zeros when the model has none).
 */
typedef struct fovea_conv_header {
    uint32_t magic;
    uint32_t isa;
    uint32_t has_bias;
    uint32_t pixel_rows;    /* weights in panels of 32 channels for f32_gemm_t8x32 (conv2d-pixel-rows.c) */
    fovea_conv2d_params params;
    size_t group_outputs;   /* M per group */
    size_t reduction;       /* K = channels/groups × kernel_height × kernel_width */
    size_t group_floats;    /* packed A floats per group */
} fovea_conv_header;

enum { FOVEA_CONV_HEADER_BYTES = (sizeof(fovea_conv_header) + 63) / 64 * 64 };

/* Whether B is the input planes themselves (1×1, stride 1, no padding). */
static inline int fovea_conv_is_pointwise(const fovea_conv2d_params *p) {
    return p->kernel_height == 1 && p->kernel_width == 1 && p->stride_height == 1 && p->stride_width == 1 &&
           p->pad_top == 0 && p->pad_left == 0 && p->output_height == p->input_height &&
           p->output_width == p->input_width;
}

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
 * Small planes on AVX-512 run with pixels as the tile's rows and output
 * channels as its lanes (conv2d-pixel-rows.c): whether this shape does.
 */
int fovea_conv_uses_pixel_rows(const fovea_conv2d_params *p, fovea_isa isa);

/* Rows of the weight panels for this shape: 32 channels for pixel rows, else the ISA's MR. */
size_t fovea_conv_weight_panel_rows(const fovea_conv2d_params *p, fovea_isa isa);

/* Workspace floats of a pixel-rows run (shared by its threads). */
size_t fovea_conv2d_pixel_rows_workspace_floats(const fovea_conv_header *h);

/*
 * Runs a pixel-rows convolution (groups == 1) in `threads` shares on `threadpool`: y (row
 * stride per image y_batch_stride) from x, the packed panels and bias; with
 * `add`, every tile starts from y's values.
 */
void fovea_conv2d_pixel_rows_run(const fovea_conv_header *h, const float *panels, const float *bias, const float *x,
                                 float *y, size_t y_batch_stride, const fovea_epilogue *epilogue, int add,
                                 float *workspace, const fovea_threadpool *threadpool, int threads);

/*
 * Packs columns [n0, n0 + nc) of one group's im2col matrix (K rows, one per
 * (channel, kh, kw); one column per output pixel of every image in turn:
 * N·OH·OW) into column panels of nr, K×nr floats each. `x` points at the
 * group's first input channel of image 0; image n's is image_stride floats on.
 */
void fovea_im2col_pack(const fovea_conv2d_params *p, const float *x, size_t image_stride, size_t n0, size_t nc,
                       size_t nr, fovea_isa isa, float *packed);

/*
 * The same packing for 3×3 stride-2 convolutions without left padding on
 * AVX-512, a whole output row at a time (im2col-pack-3x3s2-rows-avx512.c);
 * whether a shape, panel width and ISA take it.
 */
int fovea_im2col_pack_3x3s2_rows_applies(const fovea_conv2d_params *p, size_t nr, fovea_isa isa);
#if FOVEA_HAVE_X86_VARIANTS
void fovea_im2col_pack_3x3s2_rows__avx512(const fovea_conv2d_params *p, const float *x, size_t image_stride, size_t n0,
                                          size_t nc, size_t nr, float *packed);
#endif

/*
 * The same packing for 1×1 stride-2 convolutions on output rows of at least
 * 16 pixels into 32-column panels on AVX-512, half a panel per vector
 * (im2col-pack-stride2-panels-avx512.c); whether a shape, panel width and ISA
 * take it.
 */
int fovea_im2col_pack_stride2_panels_applies(const fovea_conv2d_params *p, size_t nr, fovea_isa isa);
#if FOVEA_HAVE_X86_VARIANTS
void fovea_im2col_pack_stride2_panels__avx512(const fovea_conv2d_params *p, const float *x, size_t image_stride,
                                              size_t n0, size_t nc, float *packed);
#endif

/*
 * Pixel-rows panels (K×8 per group of 8 output pixels) of stride-2
 * convolutions up to 3×3 with output rows of at least 7 pixels, gathered
 * straight from the input planes (pixel-groups-stride2-avx512.c): whether a
 * shape takes it, and the packing of units [first, end) (unit n·C + c: image
 * n, channel c) for the `groups` groups of pixels [bounds[g], bounds[g + 1])
 * of each image.
 */
int fovea_pixel_groups_stride2_applies(const fovea_conv2d_params *p);
#if FOVEA_HAVE_X86_VARIANTS
void fovea_pack_pixel_groups_stride2__avx512(const fovea_conv2d_params *p, const float *x, const size_t *bounds,
                                             size_t groups, size_t first, size_t end, float *workspace);
#endif

/* dst[q] = src[2q] for q < count: the stride-2 gather of im2col rows, per ISA. */
typedef void (*fovea_gather_stride2_fn)(float *dst, const float *src, size_t count);
void fovea_gather_stride2__scalar(float *dst, const float *src, size_t count);
#if FOVEA_HAVE_X86_VARIANTS
void fovea_gather_stride2__avx512(float *dst, const float *src, size_t count);
#endif

/*
 * The im2col rows of the three taps kw = 0, 1, 2 of one input row for a 3×3
 * stride-2 pad-1 convolution: dst_kw[q] = row[start + 2q + kw − 1] for q < count
 * (start: twice the first output column), zero where that lies outside the
 * row's `width` values (nothing outside them is read).
 */
typedef void (*fovea_gather_stride2_taps3_fn)(float *dst0, float *dst1, float *dst2, const float *row, size_t width,
                                              size_t start, size_t count);
void fovea_gather_stride2_taps3__scalar(float *dst0, float *dst1, float *dst2, const float *row, size_t width,
                                        size_t start, size_t count);
#if FOVEA_HAVE_X86_VARIANTS
void fovea_gather_stride2_taps3__avx512(float *dst0, float *dst1, float *dst2, const float *row, size_t width,
                                        size_t start, size_t count);
#endif

#endif
