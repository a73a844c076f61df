/*
 * fovea_conv_smallc.h — direct convolution for few input channels (part of
 * fovea_kernels.h): the first layer of an image network, which reads a 3-channel
 * image. There im2col + GEMM has a tiny K (C_in·k·k = 27 for a 3×3 stem) and
 * spends its time packing; a direct loop over the taps does not pack at all.
 *
 * Y[n, m, oh, ow] = bias[m] + Σ_{c, kh, kw} W[m, c, kh, kw] ·
 *                   X[n, c, oh·stride_h − pad_top + kh, ow·stride_w − pad_left + kw]
 *
 * (taps outside X are zero padding), then the fused activation, applied while
 * the sums are in registers. No weight packing: the kernels read the ONNX
 * weight layout directly.
 *
 * Variants (per ISA): output pixels along a row are the vector lanes (16 for
 * AVX-512, 8 for AVX2), several output channels × several pixel vectors are
 * register accumulators, and every tap is one broadcast weight per channel.
 * The input rows an output row reads are first copied into the workspace,
 * zero-padded and (stride 2) split into even and odd columns, so every load is
 * contiguous and none needs a mask. Names encode the tile: f32_conv_smallc_8x48_avx512 is
 * 8 output channels × 48 pixels; f32_conv_smallc_4x24_avx2; _1x1_scalar.
 * Variants add the taps in (c, kh, kw) order with FMA: results agree with a
 * plain sum to within rounding, not bit for bit.
 */
#ifndef FOVEA_CONV_SMALLC_H
#define FOVEA_CONV_SMALLC_H

#include "fovea_kernels.h"
#include "fovea_conv.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The most input channels the direct small-channel convolution takes. */
#define FOVEA_CONV_SMALLC_MAX_CHANNELS 4
/** The largest kernel height and width it takes (11: AlexNet's stem). */
#define FOVEA_CONV_SMALLC_MAX_KERNEL 11

/**
 * 1 if fovea_conv2d_smallc_f32 runs these parameters: a valid convolution
 * (fovea_conv2d_check) with groups == 1, 1 ≤ channels ≤
 * FOVEA_CONV_SMALLC_MAX_CHANNELS, kernels of at most FOVEA_CONV_SMALLC_MAX_KERNEL
 * each way, dilation 1 and strides of 1 or 2; else 0.
 */
int fovea_conv2d_smallc_supports(const fovea_conv2d_params *params);

/**
 * Workspace bytes a run on up to `threads` threads needs (each thread's copy of
 * the input rows one output row reads); 0 if the parameters are not supported.
 */
size_t fovea_conv2d_smallc_workspace_size(const fovea_conv2d_params *params, size_t threads);

/**
 * Runs a direct convolution with few input channels.
 *
 * - `params`: as fovea_conv2d_smallc_supports accepts (else
 *   FOVEA_STATUS_INVALID_PARAMETER, or what fovea_conv2d_check returns).
 *   The caller chooses output_height / output_width; outputs whose window lies
 *   wholly in the padding get the bias (then the activation).
 * - `weights`: output_channels × channels × kernel_height × kernel_width (ONNX).
 * - `bias`: output_channels values, or NULL for none.
 * - `x`: batch × channels × input_height × input_width, dense.
 * - `y`: image n starts at y + n·y_batch_stride and holds output_channels dense
 *   output_height × output_width planes (y_batch_stride ≥ output_channels ·
 *   output_height · output_width; larger writes a channel slice of a wider
 *   tensor, such as a Concat's; the gaps are not written).
 * - `activation`: fused activation, or NULL for none (an unknown kind is
 *   FOVEA_STATUS_INVALID_PARAMETER).
 * - `workspace`: at least fovea_conv2d_smallc_workspace_size(params, threadpool->threads)
 *   bytes (else FOVEA_STATUS_BUFFER_TOO_SMALL), float-aligned.
 * - `threadpool`: the caller's pool; up to its `threads` threads over output
 *   rows (and blocks of output channels when rows are few); NULL, 0 or 1 is
 *   the calling thread.
 *
 * x and y must not overlap. Statuses: NULL_POINTER (params, weights, x, y or workspace is
 * NULL), INVALID_PARAMETER, BUFFER_TOO_SMALL, TOO_LARGE; nothing is written on error.
 */
fovea_status fovea_conv2d_smallc_f32(const fovea_conv2d_params *params, const float *weights, const float *bias,
                                     const float *x, float *y, size_t y_batch_stride,
                                     const fovea_activation *activation, void *workspace, size_t workspace_bytes,
                                     const fovea_threadpool *threadpool);

/**
 * The variant a call with these parameters would run with the active ISA,
 * such as "f32_conv_smallc_8x48_avx512"; NULL if they are not supported.
 */
const char *fovea_conv2d_smallc_kernel_name(const fovea_conv2d_params *params);

#ifdef __cplusplus
}
#endif

#endif /* FOVEA_CONV_SMALLC_H */
