/*
 * fovea_transpose.h — Transpose (an axis permutation) of a float tensor
 * (part of fovea_kernels.h).
 */
#ifndef FOVEA_TRANSPOSE_H
#define FOVEA_TRANSPOSE_H

#include "fovea_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The most axes fovea_transpose_f32 takes. */
#define FOVEA_TRANSPOSE_MAX_RANK 8

/**
 * y = x with its axes permuted: output axis i is input axis perm[i] (ONNX
 * Transpose). x has `rank` axes of sizes shape[0 ..< rank], row-major; y is
 * written row-major. Size-1 axes are dropped and axes that stay adjacent are
 * merged first, so a permutation that keeps the last axis copies runs of it,
 * and any other moves square tiles between the two contiguous axes. Runs on
 * up to `threadpool->threads` threads (NULL: the calling thread). Bit-exact (a copy). Statuses: NULL_POINTER (x, y,
 * or shape/perm when rank > 0), INVALID_PARAMETER (rank above
 * FOVEA_TRANSPOSE_MAX_RANK, perm not a permutation of 0 ..< rank, a size
 * above FOVEA_KERNELS_MAX_EXTENT), TOO_LARGE (the element count overflows).
 * x and y must not overlap. An empty tensor writes nothing.
 */
fovea_status fovea_transpose_f32(size_t rank, const size_t *shape, const size_t *perm, const float *x, float *y,
                                 const fovea_threadpool *threadpool);

#ifdef __cplusplus
}
#endif

#endif
