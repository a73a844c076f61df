/*
 * fovea_depthwise.h — depthwise 2-D convolution, direct (part of fovea_kernels.h).
 *
 * A depthwise convolution is a grouped convolution with one group per input
 * channel (groups == channels). Output channel m reads input channel
 * m / multiplier only, where multiplier = output_channels / channels ≥ 1:
 *
 * Y[n, m, oh, ow] = bias[m] + Σ_{kh, kw} W[m, 0, kh, kw] ·
 *                   X[n, m / multiplier, oh·stride_h − pad_top + kh·dilation_h, ow·stride_w − pad_left + kw·dilation_w]
 *
 * (taps outside X are zero padding), then the fused activation. There is no
 * weight packing and no workspace: the kernels read the ONNX weight layout
 * directly, one output plane at a time.
 *
 * Variants (per ISA: scalar, AVX2 + FMA, AVX-512F):
 *  - dwconv_3x3s1: 3×3, stride 1, dilation 1, any pads (MobileNet's stride-1 blocks);
 *  - dwconv_3x3s2: 3×3, stride 2, dilation 1, any pads;
 *  - dwconv_kxk:   any kernel size, stride and dilation.
 * The SIMD variants vectorize along the output row (16 or 8 columns) and go
 * down the plane keeping the partial sums of the rows in flight in registers.
 * Variants may add the taps in different orders and use FMA: results agree
 * to within rounding (not bit for bit) across ISAs.
 */
#ifndef FOVEA_DEPTHWISE_H
#define FOVEA_DEPTHWISE_H

#include "fovea_kernels.h"
#include "fovea_conv.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Runs a depthwise convolution.
 *
 * - `params`: the convolution's shape; `groups` must equal `channels` and
 *   `output_channels` must be a non-zero multiple of `channels` (else
 *   FOVEA_STATUS_INVALID_PARAMETER). Extents, strides and dilations must be
 *   non-zero and at most FOVEA_KERNELS_MAX_EXTENT, like every convolution.
 *   The caller chooses output_height / output_width; outputs whose window lies
 *   wholly in the padding get the bias (then the activation).
 * - `weights`: output_channels × 1 × kernel_height × kernel_width (ONNX layout).
 * - `bias`: output_channels values, or NULL for none.
 * - `x`: batch × channels × input_height × input_width, dense.
 * - `y`: image n starts at y + n·y_batch_stride and holds output_channels dense
 *   output_height × output_width planes. y_batch_stride must be at least
 *   output_channels · output_height · output_width (larger: a channel slice of
 *   a wider tensor, such as a Concat's; the gaps are not written).
 * - `activation`: fused activation, or NULL for none (an unknown kind is
 *   FOVEA_STATUS_INVALID_PARAMETER); as for every fused activation, NaN stays
 *   NaN except through ReLU, which maps it to 0.
 * - `threadpool`: the caller's pool; runs on up to its `threads` threads over
 *   the batch × output_channels planes, and over row bands of each plane when
 *   there are fewer planes than threads; NULL, 0 or 1 is the calling thread.
 *
 * x and y must not overlap. Nothing to do (batch, channels or an output extent
 * is 0): FOVEA_STATUS_OK with no pointer read. Statuses: NULL_POINTER
 * (params, weights, x or y is NULL), INVALID_PARAMETER, TOO_LARGE (byte sizes
 * overflow); nothing is written on error.
 */
fovea_status fovea_depthwise_conv2d_f32(const fovea_conv2d_params *params, const float *weights, const float *bias,
                                        const float *x, float *y, size_t y_batch_stride,
                                        const fovea_activation *activation, const fovea_threadpool *threadpool);

/**
 * The variant a call with these parameters would run with the active ISA,
 * such as "dwconv_3x3s1_avx512", "dwconv_3x3s2_avx2" or "dwconv_kxk_scalar";
 * NULL if the parameters are not a valid depthwise convolution.
 */
const char *fovea_depthwise_kernel_name(const fovea_conv2d_params *params);

#ifdef __cplusplus
}
#endif

#endif /* FOVEA_DEPTHWISE_H */
