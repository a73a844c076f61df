/*
 * fovea_qconv.h — quantized 2-D convolution (part of fovea_kernels.h), as
 * ONNX QLinearConv defines it and onnxruntime runs it (QLinearConv, and the
 * DQ → Conv → Q groups its QDQ transformer turns into QLinearConv):
 *
 *   acc[n, m, p] = bias[m] + Σ_{c, kh, kw} (X[n, c, tap] − x_zero_point) · W[m, c, kh, kw]
 *   Y[n, m, p]   = clamp(round_half_even(float(acc) · mult[m]) + y_zero_point, lo, hi)
 *   mult[m]      = (x_scale · w_scale[m]) / y_scale         (float32, in that order)
 *
 * with the same tap rule as fovea_conv.h (taps outside X read x_zero_point,
 * so they add nothing) and `fovea_conv2d_params` for the shape (NCHW).
 *
 *  - X: uint8 or int8 (FOVEA_QTYPE_S8: the kernels flip the sign bit while
 *    packing, which maps int8 v to uint8 v + 128, and use x_zero_point + 128:
 *    one u8 × s8 path serves both).
 *  - W: int8, symmetric (zero point 0, as onnxruntime's quantize_static
 *    writes), scale per tensor (1 value) or per output channel. A non-zero
 *    weight zero point is refused (FOVEA_STATUS_UNSUPPORTED_QUANTIZATION),
 *    not corrected (a correction would need each pixel's input sum per run).
 *  - bias: int32 at scale x_scale · w_scale[m] (ONNX's rule), or NULL.
 *  - Y: uint8 or int8 with its own scale and zero point, written at
 *    y + n · y_batch_stride (bytes); a larger stride writes a channel slice.
 *  - A fused Relu / Clip is a clamp in the quantized domain: [output_min,
 *    output_max] (in Y's type; the type's full range for none).
 *
 * Arithmetic is exact up to the requantization, which is MLAS's
 * (MlasRequantizeOutput): int32 accumulator + bias, converted to float32
 * (nearest even), times mult[m], clamped to [lo − zp, hi − zp] in float32,
 * rounded half to even (cvtps2dq under the default MXCSR), plus zp. So every
 * kernel variant gives the same bytes as onnxruntime for the same inputs.
 * The int32 accumulator wraps (as MLAS's) past 2³¹: |Σ x·w| ≤ K · 255 · 128,
 * so K up to 65793 can never wrap; the kernels refuse K > 65536.
 *
 * Weights are packed once (fovea_qconv2d_packed_size / fovea_qconv2d_pack)
 * with everything known at plan time folded in: the per-channel multipliers,
 * the bias minus x_zero_point times each channel's weight sum (as MLAS
 * precomputes column sums), the output zero point and clamp. A run then takes
 * only tensors, a workspace and the caller's pool.
 */
#include "fovea_kernels.h"

#ifndef FOVEA_QCONV_H
#define FOVEA_QCONV_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The element type of a quantized activation tensor. */
typedef enum fovea_qtype { FOVEA_QTYPE_U8 = 0, FOVEA_QTYPE_S8 = 1 } fovea_qtype;

/** Everything about a quantized convolution that is not its shape. */
typedef struct fovea_qconv2d_quantization {
    fovea_qtype input_type;
    float input_scale;          /* > 0, finite */
    int32_t input_zero_point;   /* in input_type's range */
    const float *weight_scales; /* weight_scale_count values, each > 0 and finite */
    size_t weight_scale_count;  /* 1 (per tensor) or output_channels (per channel) */
    /* NULL, or weight_scale_count zero points: each must be 0 (symmetric weights). */
    const int8_t *weight_zero_points;
    fovea_qtype output_type;
    float output_scale;         /* > 0, finite */
    int32_t output_zero_point;  /* in output_type's range */
    int32_t output_min;         /* fused clamp, in output_type's range, output_min <= output_max */
    int32_t output_max;
} fovea_qconv2d_quantization;

/**
 * The names of the int8 GEMM kernels this build has, for i < count:
 * "qs8_gemm_4x8c2_scalar", "qs8_gemm_6x16c2_avx2", "qs8_gemm_6x16c4_avxvnni",
 * "qs8_gemm_8x32c4_avx512vnni", "qs8_gemm_32x32_amx", and the portable C
 * kernels over the VNNI and AMX layouts ("qs8_gemm_6x16c4_scalar",
 * "qs8_gemm_8x32c4_scalar", "qs8_gemm_32x32c64_scalar", for tests). NULL past
 * the end.
 */
const char *fovea_qconv2d_kernel_at(size_t i);

/** 1 if this CPU (and OS) can run the named kernel, else 0 (also for unknown names and NULL). */
int fovea_qconv2d_kernel_supported(const char *kernel);

/**
 * The kernel the active ISA packs for (fovea_kernels_set_isa / FOVEA_ISA):
 * scalar: the scalar one; avx2: AVX-VNNI's where the CPU has it (CPUID
 * 7.1:EAX bit 4), else AVX2's; avx512 and avx512bf16: AVX512-VNNI's where the
 * CPU has it, else as avx2; amx: the AMX-INT8 tile where the CPU and OS allow
 * it, else as avx512.
 */
const char *fovea_qconv2d_default_kernel(void);

/**
 * Bytes of packed weights for `kernel` (NULL: fovea_qconv2d_default_kernel()).
 * 0 if the shape is invalid, K = channels/groups · kernel_height · kernel_width
 * exceeds 65536, or the kernel is unknown.
 */
size_t fovea_qconv2d_packed_size(const fovea_conv2d_params *params, const char *kernel);

/**
 * Packs int8 `weights` (output_channels × channels/groups × kernel_height ×
 * kernel_width) and int32 `bias` (output_channels values, or NULL) for
 * `kernel` (NULL: the default one), with `quantization` folded in.
 * FOVEA_STATUS_UNSUPPORTED_ISA for a kernel this CPU cannot run,
 * FOVEA_STATUS_UNKNOWN_ISA for an unknown kernel name,
 * FOVEA_STATUS_INVALID_PARAMETER for scales that are not positive and finite,
 * zero points or clamps outside their type; FOVEA_STATUS_UNSUPPORTED_QUANTIZATION
 * for a non-zero weight zero point.
 */
fovea_status fovea_qconv2d_pack(const fovea_conv2d_params *params, const fovea_qconv2d_quantization *quantization,
                                const int8_t *weights, const int32_t *bias, const char *kernel, void *packed,
                                size_t packed_bytes);

/** Workspace bytes a run of `packed` on up to `threads` threads needs; 0 if `packed` is not valid. */
size_t fovea_qconv2d_workspace_size(const void *packed, size_t threads);

/**
 * Runs the convolution: x is batch × channels × input_height × input_width
 * bytes (of the input type), y gets batch images of output_channels dense
 * planes of output_height × output_width bytes, image n at y + n ·
 * y_batch_stride (≥ output_channels · output_height · output_width).
 * FOVEA_STATUS_PACKING_MISMATCH if `packed` was packed for another shape.
 */
fovea_status fovea_qconv2d_run(const fovea_conv2d_params *params, const void *packed, const void *x, void *y,
                               size_t y_batch_stride, void *workspace, size_t workspace_bytes,
                               const fovea_threadpool *threadpool);

/** The kernel `packed` runs ("qs8_gemm_6x16c2_avx2"), or NULL if it is not packed qconv weights. */
const char *fovea_qconv2d_kernel_name(const void *packed);

/* ---- Depthwise ---- */

/**
 * Bytes of packed weights for a depthwise quantized convolution: groups ==
 * channels == output_channels (channel multiplier 1), any kernel, stride,
 * dilation and pads. 0 if the shape is not that or is invalid.
 */
size_t fovea_qdwconv2d_packed_size(const fovea_conv2d_params *params);

/**
 * Packs int8 `weights` (channels × kernel_height × kernel_width) and int32
 * `bias` (or NULL) with `quantization` (the same rules and statuses as
 * fovea_qconv2d_pack; weight_scale_count 1 or channels).
 */
fovea_status fovea_qdwconv2d_pack(const fovea_conv2d_params *params, const fovea_qconv2d_quantization *quantization,
                                  const int8_t *weights, const int32_t *bias, void *packed, size_t packed_bytes);

/**
 * Runs it: the same arithmetic, bytes and layout as fovea_qconv2d_run (each
 * output is the int32 sum of its taps inside x, requantized as MLAS does), by
 * direct loops over each plane (portable C; no workspace). Planes are shared
 * over the caller's pool.
 */
fovea_status fovea_qdwconv2d_run(const fovea_conv2d_params *params, const void *packed, const void *x, void *y,
                                 size_t y_batch_stride, const fovea_threadpool *threadpool);

#ifdef __cplusplus
}
#endif

#endif /* FOVEA_QCONV_H */
