/*
 * Internal: depthwise int8 convolution of one plane (fovea_qconv.h's
 * fovea_qdwconv2d_*). Each output is Σ (x − zero_point) · w over its taps
 * inside the plane, plus the bias, requantized by fovea_qs8_requantize. Taps
 * in the padding would add (zero_point − zero_point) · w = 0, so kernels may
 * skip them or read the zero point instead, with the same result.
 */
#ifndef FOVEA_KERNELS_DWCONV_QS8_H
#define FOVEA_KERNELS_DWCONV_QS8_H

#include <stddef.h>
#include <stdint.h>

#include "../gemm-qs8/gemm-qs8.h"

typedef struct fovea_qs8_dwconv_plane {
    const uint8_t *x; /* input_height × input_width bytes, in u8 terms after ^ input_xor */
    uint8_t *y;       /* output_height × output_width bytes */
    size_t input_height, input_width, output_height, output_width;
    size_t kernel_height, kernel_width, stride_height, stride_width, dilation_height, dilation_width;
    size_t pad_top, pad_left;
    const int8_t *weights; /* kernel_height × kernel_width */
    uint8_t input_xor;
    int32_t zero_point;        /* the input's, in u8 terms */
    fovea_qs8_requant requant; /* bias and scale point at this channel's */
} fovea_qs8_dwconv_plane;

typedef void (*fovea_qs8_dwconv_fn)(const fovea_qs8_dwconv_plane *plane);

/* Any shape, tap by tap. */
void fovea_qs8_dwconv_kxk__scalar(const fovea_qs8_dwconv_plane *plane);

/* Outputs at one scalar output (row, column): the scalar kernel's loop, for the vector kernels' edges. */
uint8_t fovea_qs8_dwconv_output(const fovea_qs8_dwconv_plane *plane, size_t oh, size_t ow);

#if FOVEA_HAVE_X86_VARIANTS
/* Stride 1, dilation 1, any k×k: 16 outputs of a row per step where every tap is inside the row. */
void fovea_qs8_dwconv_kxks1__avx2(const fovea_qs8_dwconv_plane *plane);
#endif

#endif
