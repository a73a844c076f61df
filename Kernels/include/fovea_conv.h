/*
 * fovea_conv.h — 2-D convolution as packed GEMM (part of fovea_kernels.h).
 *
 * Y[n, m, oh, ow] = bias[m] + Σ_{c, kh, kw} W[m, c, kh, kw] ·
 *                   X[n, g·C/G + c, oh·stride_h − pad_top + kh·dilation_h, ow·stride_w − pad_left + kw·dilation_w]
 * for output channel m of group g (taps outside X are zero), then the fused activation.
 *
 * Weights are packed once (fovea_conv2d_pack, into a buffer the caller owns
 * and sizes with fovea_conv2d_packed_size) for the ISA active at packing time;
 * a run uses that ISA's microkernel whatever the ISA is later. Each run needs a
 * workspace of fovea_conv2d_workspace_size bytes for the thread count it uses.
 */
/*
 * Included before the guard: whichever header a compiler reads first,
 * fovea_kernels.h then includes this one (and the families that use
 * fovea_conv2d_params after it) in order.
 */
#include "fovea_kernels.h"

#ifndef FOVEA_CONV_H
#define FOVEA_CONV_H

#ifdef __cplusplus
extern "C" {
#endif

/** The shape of a 2-D NCHW float32 convolution. */
typedef struct fovea_conv2d_params {
    size_t batch;
    size_t channels;        /* input channels, all groups */
    size_t input_height;
    size_t input_width;
    size_t output_channels; /* all groups */
    size_t groups;          /* channels and output_channels are multiples of it */
    size_t output_height;
    size_t output_width;
    size_t kernel_height;
    size_t kernel_width;
    size_t stride_height;
    size_t stride_width;
    size_t dilation_height;
    size_t dilation_width;
    size_t pad_top;
    size_t pad_left;
} fovea_conv2d_params;

/**
 * Checks a convolution's shape: non-zero extents, strides and dilations,
 * groups dividing both channel counts, sizes within FOVEA_KERNELS_MAX_EXTENT
 * and byte counts within the address space. Every conv entry point (GEMM,
 * Winograd, depthwise) runs it first.
 */
fovea_status fovea_conv2d_check(const fovea_conv2d_params *params);

/**
 * Bytes of packed weights for the GEMM convolution (1×1 on the input planes,
 * or im2col packed straight into the GEMM's panels), for the active ISA.
 * 0 if the parameters are invalid.
 */
size_t fovea_conv2d_packed_size(const fovea_conv2d_params *params);

/**
 * Packs `weights` (output_channels × channels/groups × kernel_height ×
 * kernel_width) and `bias` (output_channels values, or NULL for none) into
 * `packed` (`packed_bytes` from fovea_conv2d_packed_size), for the active ISA.
 */
fovea_status fovea_conv2d_pack(const fovea_conv2d_params *params, const float *weights, const float *bias,
                               void *packed, size_t packed_bytes);

/**
 * fovea_conv2d_packed_size for weights of a given precision (fovea_kernels.h):
 * FOVEA_PRECISION_F32 is fovea_conv2d_packed_size; FOVEA_PRECISION_BF16 sizes
 * bf16 weights for the active ISA's bf16 kernel. 0 if the parameters or the
 * precision are invalid.
 */
size_t fovea_conv2d_packed_size_precision(const fovea_conv2d_params *params, fovea_precision precision);

/**
 * fovea_conv2d_pack at a precision. BF16 rounds the weights to bfloat16
 * (fovea_bf16.h: nearest even) for the active ISA's bf16 GEMM kernel
 * ("bf16_gemm_12x32_avx512bf16" with AVX512_BF16, "bf16_gemm_8x32_avx512"
 * with AVX-512F alone, "bf16_gemm_4x16_scalar" elsewhere); the bias stays
 * float32. Runs of bf16 weights (fovea_conv2d_f32, fovea_conv2d_add_f32, same
 * arguments, x and y float32) round each input value to bf16, multiply bf16 by
 * bf16 (exact in float32) and accumulate in float32, then add the bias, the
 * residual and the activation in float32: each product carries the relative
 * error of two bf16 roundings (at most 2⁻⁸ each). They always run as one GEMM
 * (never the pixel-rows tile), and the fused conv + max pool refuses them
 * (FOVEA_STATUS_PACKING_MISMATCH). The AVX512_BF16 and AMX kernels treat
 * denormal bf16 operands and sums as zero (the instructions' fixed behaviour).
 * FOVEA_STATUS_INVALID_PARAMETER for a precision that is neither.
 */
fovea_status fovea_conv2d_pack_precision(const fovea_conv2d_params *params, fovea_precision precision,
                                         const float *weights, const float *bias, void *packed, size_t packed_bytes);

/** The precision `packed` was packed at, or (fovea_precision)-1 if it is not packed convolution weights. */
fovea_precision fovea_conv2d_packed_precision(const void *packed);

/**
 * Workspace bytes a run on up to `threads` threads needs (packed input
 * blocks, one per thread). 0 if `packed` is not valid packed weights.
 */
size_t fovea_conv2d_workspace_size(const void *packed, size_t threads);

/**
 * Runs the convolution: x is batch × channels × input_height × input_width
 * (dense); image n of y starts at y + n·y_batch_stride and holds
 * output_channels dense planes (y_batch_stride ≥ output_channels ·
 * output_height · output_width; larger writes a channel slice of a wider
 * tensor, such as a Concat's). `bias` overrides the packed bias when not NULL
 * (a bias that is an input at run time). `activation` may be NULL (none).
 * Runs on up to `threadpool->threads` threads of the caller's pool (NULL,
 * 0 or 1: the calling thread); `workspace` is sized for that count.
 */
fovea_status fovea_conv2d_f32(const fovea_conv2d_params *params, const void *packed, const float *x,
                              float *y, size_t y_batch_stride, const float *bias,
                              const fovea_activation *activation, void *workspace, size_t workspace_bytes,
                              const fovea_threadpool *threadpool);

/**
 * fovea_conv2d_f32 onto a residual: y already holds a tensor of the output's
 * shape (and layout), and the result is y = activation(y + bias + conv(x)),
 * the Conv → Add → activation of a residual connection in one pass (every
 * output tile starts from y's values instead of from zero). Same arguments,
 * checks and workspace as fovea_conv2d_f32.
 */
fovea_status fovea_conv2d_add_f32(const fovea_conv2d_params *params, const void *packed, const float *x,
                                  float *y, size_t y_batch_stride, const float *bias,
                                  const fovea_activation *activation, void *workspace, size_t workspace_bytes,
                                  const fovea_threadpool *threadpool);

/**
 * The microkernel a packed buffer runs, such as "f32_gemm_8x32_avx512" or, for
 * bf16 weights, "bf16_gemm_12x32_avx512bf16" (NULL if not valid).
 */
const char *fovea_conv2d_kernel_name(const void *packed);

#ifdef __cplusplus
}
#endif

#endif /* FOVEA_CONV_H */
