/*
 * fovea_qpool.h — pooling on 8-bit quantized tensors (part of fovea_kernels.h).
 *
 * Max pooling keeps the input's scale and zero point (ONNX MaxPool on uint8 /
 * int8): each output is the largest input byte in its window, in the type's
 * order; a window with only padding gives the type's minimum (0, or −128).
 *
 * Global average pooling is com.microsoft QLinearGlobalAveragePool (NCHW) as
 * onnxruntime's MLAS computes it: per plane of S values, the int32 sum of x
 * minus x_zero_point · S, times (x_scale / (y_scale · float(S))) in float32,
 * rounded half to even, plus y_zero_point, saturated. S must be below 2²⁴ and
 * that multiplier in [2⁻³², 256) (MLAS refuses the rest:
 * FOVEA_STATUS_INVALID_PARAMETER here).
 */
#include "fovea_kernels.h"

#ifndef FOVEA_QPOOL_H
#define FOVEA_QPOOL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** 2-D max pooling of bytes of `type` (fovea_qconv.h's fovea_qtype); `params` as fovea_maxpool2d_f32's. */
fovea_status fovea_maxpool2d_q8(const fovea_pool2d_params *params, fovea_qtype type, const void *x, void *y,
                                const fovea_threadpool *threadpool);

/** QLinearGlobalAveragePool over `planes` planes of `plane_size` bytes; x and y of the same `type`. */
fovea_status fovea_global_avgpool_q8(size_t planes, size_t plane_size, fovea_qtype type, float x_scale,
                                     int32_t x_zero_point, float y_scale, int32_t y_zero_point, const void *x,
                                     void *y, const fovea_threadpool *threadpool);

#ifdef __cplusplus
}
#endif

#endif /* FOVEA_QPOOL_H */
