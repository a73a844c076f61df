/*
 * Internal: the GEMM convolution's packed-weight header and its input packing
 * (1×1 planes or im2col, straight into the microkernel's column panels).
 */
#ifndef FOVEA_KERNELS_CONV_H
#define FOVEA_KERNELS_CONV_H

#include "../configs/config.h"

#include <stdint.h>

#define FOVEA_CONV_MAGIC 0x47564346u /* "FCVG" */

/*
 * The start of a packed buffer: what it was packed for. The A panels of each
 * group follow at the first 64-byte boundary, `group_floats` apart, then the
 * bias (output_channels floats, zeros when the model has none). bf16 weights
 * (precision FOVEA_PRECISION_BF16) are the bf16 GEMM config's A panels, with
 * the reduction padded to its k_align; they run only in conv2d.c's GEMM path.
 */
typedef struct fovea_conv_header {
    uint32_t magic;
    uint32_t isa;
    uint32_t has_bias;
    uint32_t pixel_rows;    /* weights in panels of 32 channels for f32_gemm_t8x32 (conv2d-pixel-rows.c) */
    uint32_t precision;     /* fovea_precision: BF16 panels hold bf16 values in the bf16 GEMM config's layout */
    uint32_t tile_rows;     /* bf16: MR of the bf16 tile the panels are for (fovea_bf16_gemm_config_with_mr) */
    fovea_conv2d_params params;
    size_t group_outputs;   /* M per group */
    size_t reduction;       /* K = channels/groups × kernel_height × kernel_width */
    size_t group_floats;    /* packed A per group, in floats (bf16: two values per float) */
} fovea_conv_header;

enum { FOVEA_CONV_HEADER_BYTES = (sizeof(fovea_conv_header) + 63) / 64 * 64 };

/* Whether B is the input planes themselves (1×1, stride 1, no padding). */
static inline int fovea_conv_is_pointwise(const fovea_conv2d_params *p) {
    return p->kernel_height == 1 && p->kernel_width == 1 && p->stride_height == 1 && p->stride_width == 1 &&
           p->pad_top == 0 && p->pad_left == 0 && p->output_height == p->input_height &&
           p->output_width == p->input_width;
}

/*
 * Small planes run with pixels as the tile's rows and output channels as its
 * lanes (conv2d-pixel-rows.c) where the config has that tile (AVX-512):
 * whether this shape does.
 */
int fovea_conv_uses_pixel_rows(const fovea_conv2d_params *p, const fovea_conv_config *conv);

/* Rows of the weight panels for this shape: 32 channels for pixel rows, else the GEMM tile's MR. */
size_t fovea_conv_weight_panel_rows(const fovea_conv2d_params *p, const fovea_conv_config *conv);

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
                       size_t nr, const fovea_conv_config *conv, float *packed);

#endif
