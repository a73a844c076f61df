/*
 * fovea_bf16.h — bfloat16 values (part of fovea_kernels.h).
 *
 * A bf16 value is the upper 16 bits of a float32 (sign, the 8 exponent bits,
 * 7 fraction bits), stored as uint16_t: float32's range with about 3 decimal
 * digits. Weights packed with FOVEA_PRECISION_BF16 (fovea_conv.h) hold bf16;
 * their kernels multiply bf16 values (each product is exact in float32) and
 * accumulate in float32.
 */
#include "fovea_kernels.h"

#ifndef FOVEA_BF16_H
#define FOVEA_BF16_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * y[i] = x[i] rounded to bf16 for i < n: round to nearest, ties to even.
 * ±0, ±infinity and denormals keep their meaning (a denormal rounds to the
 * nearest bf16 denormal, or up to FLT_MIN); a finite value past bf16's largest
 * (0x7F7F, about 3.39e38, such as FLT_MAX) rounds to infinity, as IEEE
 * rounding overflows; a NaN gives a quiet NaN with the same sign. The same
 * bits on every ISA.
 */
void fovea_convert_f32_to_bf16(const float *x, uint16_t *y, size_t n);

/** y[i] = x[i] as float32 for i < n (exact). */
void fovea_convert_bf16_to_f32(const uint16_t *x, float *y, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* FOVEA_BF16_H */
