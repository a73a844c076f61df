/*
 * Internal: fp32 <-> bf16 conversion. A bf16 value is the upper half of an
 * fp32 bit pattern (sign, 8 exponent bits, 7 fraction bits), stored as
 * uint16_t. fp32 -> bf16 rounds to nearest, ties to even, on the bit pattern:
 * zeros, infinities and denormals keep their meaning (a denormal rounds to the
 * nearest bf16 denormal or to FLT_MIN; a finite value past bf16's largest
 * rounds to infinity, as IEEE round-to-nearest overflows), and NaN stays a
 * quiet NaN with its sign and upper payload. bf16 -> fp32 is exact.
 */
#ifndef FOVEA_KERNELS_CONVERT_H
#define FOVEA_KERNELS_CONVERT_H

#include "../../runtime/runtime.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The rule every variant matches bit for bit. */
static inline uint16_t fovea_bf16_from_f32(float value) {
    uint32_t bits;
    memcpy(&bits, &value, sizeof bits);
    /* Rounding a NaN's bits could carry it into infinity: keep it NaN, quiet. */
    if ((bits & 0x7FFFFFFFu) > 0x7F800000u) return (uint16_t)((bits >> 16) | 0x0040u);
    bits += 0x7FFFu + ((bits >> 16) & 1u);
    return (uint16_t)(bits >> 16);
}

static inline float fovea_f32_from_bf16(uint16_t value) {
    const uint32_t bits = (uint32_t)value << 16;
    float result;
    memcpy(&result, &bits, sizeof result);
    return result;
}

/* y[i] = bf16 of x[i] / fp32 of x[i], for i < n. */
typedef void (*fovea_f32_to_bf16_fn)(const float *x, uint16_t *y, size_t n);
typedef void (*fovea_bf16_to_f32_fn)(const uint16_t *x, float *y, size_t n);

void fovea_f32_to_bf16__scalar(const float *x, uint16_t *y, size_t n);
void fovea_bf16_to_f32__scalar(const uint16_t *x, float *y, size_t n);
#if FOVEA_HAVE_X86_VARIANTS
void fovea_f32_to_bf16__avx512bf16(const float *x, uint16_t *y, size_t n);
void fovea_bf16_to_f32__avx512(const uint16_t *x, float *y, size_t n);
#endif

#endif
