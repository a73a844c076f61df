/*
 * A GEMM convolution (fovea_conv.h) followed by a max pooling of its output,
 * as one kernel: the convolution runs a band of output rows at a time into a
 * rolling buffer in each thread's workspace (the rows two bands share are
 * kept, not recomputed), and the band is pooled from there, so the
 * convolution's full output never goes to memory. For CNN stems such as
 * SqueezeNet's (3×3/2 conv, 64×111×111, then 3×3/2 max pooling).
 *
 * The weights are those of fovea_conv2d_pack. Shapes the banded run does not
 * handle (groups, and the pixel-rows layout of small planes with long
 * reductions) are refused; fovea_conv2d_maxpool_supported says which.
 */
/* Included before the guard, as fovea_conv.h explains. */
#include "fovea_kernels.h"

#ifndef FOVEA_CONV_MAXPOOL_H
#define FOVEA_CONV_MAXPOOL_H

#ifdef __cplusplus
extern "C" {
#endif

/**
 * 1 if fovea_conv2d_maxpool_f32 runs this pair: `conv` ungrouped and not
 * packed in pixel rows for the active ISA, and `pool` reading exactly conv's
 * output (batch, channels = output_channels, input size = conv's output size,
 * valid window parameters). 0 otherwise.
 */
int fovea_conv2d_maxpool_supported(const fovea_conv2d_params *conv, const fovea_pool2d_params *pool);

/** Workspace bytes for a run on up to `threads` threads with weights `packed`; 0 if unsupported. */
size_t fovea_conv2d_maxpool_workspace_size(const void *packed, const fovea_pool2d_params *pool, size_t threads);

/**
 * y = maxpool(activation(conv(x) + bias)): x as for fovea_conv2d_f32, y is
 * batch × output_channels × pool output_height × output_width (contiguous).
 * `bias` NULL uses the packed bias. Same values as fovea_conv2d_f32 then
 * fovea_maxpool2d_f32, bit for bit. Runs on up to `threadpool->threads`
 * threads (NULL: the calling thread); `workspace` is sized for that count.
 */
fovea_status fovea_conv2d_maxpool_f32(const fovea_conv2d_params *conv, const void *packed,
                                      const fovea_pool2d_params *pool, const float *x, float *y, const float *bias,
                                      const fovea_activation *activation, void *workspace, size_t workspace_bytes,
                                      const fovea_threadpool *threadpool);

#ifdef __cplusplus
}
#endif

#endif
