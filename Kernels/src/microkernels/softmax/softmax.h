/*
 * Internal pieces of Softmax / LogSoftmax: the variant signatures. Not part
 * of the public API.
 *
 * Every variant makes three passes over a slice: the maximum m, then
 * exp(x - m) (stored into y for softmax) and its sum s, then y *= 1/s
 * (softmax) or y = (x - m) - log(s) (log softmax). Each element of y is
 * written after the last read of the same element of x, so y may equal x.
 */
#ifndef FOVEA_KERNELS_SOFTMAX_H
#define FOVEA_KERNELS_SOFTMAX_H

#include "fovea_kernels.h"
#include "../../runtime/runtime.h"

#include <math.h>
#include <stddef.h>

/* One slice along a contiguous axis (inner == 1): x[0 ..< axis]. */
typedef void (*fovea_softmax_row_fn)(size_t axis, const float *x, float *y, int log);

/*
 * `columns` slices side by side (inner > 1): element k of slice j is
 * x[k * stride + j], k < axis, j < columns.
 */
typedef void (*fovea_softmax_columns_fn)(size_t axis, size_t stride, size_t columns, const float *x, float *y,
                                         int log);

#define FOVEA_SOFTMAX_VARIANTS(isa)                                                                        \
    void fovea_f32_softmax_row__##isa(size_t axis, const float *x, float *y, int log);                    \
    void fovea_f32_softmax_columns__##isa(size_t axis, size_t stride, size_t columns, const float *x, float *y, \
                                          int log);

FOVEA_SOFTMAX_VARIANTS(scalar)
#if FOVEA_HAVE_X86_VARIANTS
FOVEA_SOFTMAX_VARIANTS(avx2)
FOVEA_SOFTMAX_VARIANTS(avx512)
#endif
#if FOVEA_HAVE_NEON_VARIANTS
FOVEA_SOFTMAX_VARIANTS(neon)
#endif

#endif
