/*
 * The exported Softmax / LogSoftmax: check, pick the ISA variant, run it over
 * the slices in parallel: one row per outer index when inner == 1, else
 * blocks of up to 64 neighbouring slices (contiguous runs of the inner
 * dimension) per outer index.
 */
#include "softmax.h"

#include <stdint.h>

static const fovea_softmax_row_fn row_variants[FOVEA_ISA_COUNT] = {
    fovea_softmax_row_f32__scalar,
#if FOVEA_HAVE_X86_VARIANTS
    fovea_softmax_row_f32__avx2,
    fovea_softmax_row_f32__avx512,
#else
    fovea_softmax_row_f32__scalar,
    fovea_softmax_row_f32__scalar,
#endif
};

static const fovea_softmax_columns_fn columns_variants[FOVEA_ISA_COUNT] = {
    fovea_softmax_columns_f32__scalar,
#if FOVEA_HAVE_X86_VARIANTS
    fovea_softmax_columns_f32__avx2,
    fovea_softmax_columns_f32__avx512,
#else
    fovea_softmax_columns_f32__scalar,
    fovea_softmax_columns_f32__scalar,
#endif
};

enum { column_block = 64 };

fovea_status fovea_softmax_f32(size_t outer, size_t axis, size_t inner, const float *x, float *y, int log,
                               size_t threads) {
    if (outer == 0 || axis == 0 || inner == 0) return FOVEA_STATUS_OK;
    size_t count = 0, bytes = 0;
    if (__builtin_mul_overflow(outer, axis, &count) || __builtin_mul_overflow(count, inner, &count) ||
        __builtin_mul_overflow(count, sizeof(float), &bytes) || bytes > (size_t)PTRDIFF_MAX) {
        return FOVEA_STATUS_TOO_LARGE;
    }
    if (x == NULL || y == NULL) return FOVEA_STATUS_NULL_POINTER;
    if (x != y) {
        const uintptr_t a = (uintptr_t)x, b = (uintptr_t)y;
        if (a < b + bytes && b < a + bytes) return FOVEA_STATUS_INVALID_PARAMETER;
    }
    const fovea_isa isa = fovea_active_isa();
    const int t = fovea_threads_for(threads, 24.0 * (double)count);
    (void)t; /* unused without OpenMP */
    if (inner == 1) {
        const fovea_softmax_row_fn run = row_variants[isa];
#ifdef _OPENMP
#pragma omp parallel for schedule(static) num_threads(t) if (t > 1)
#endif
        for (size_t o = 0; o < outer; o++) run(axis, x + o * axis, y + o * axis, log);
    } else {
        const fovea_softmax_columns_fn run = columns_variants[isa];
        const size_t blocks = (inner + column_block - 1) / column_block, items = outer * blocks;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) num_threads(t) if (t > 1)
#endif
        for (size_t item = 0; item < items; item++) {
            const size_t o = item / blocks, j = item % blocks * column_block;
            const size_t columns = inner - j < column_block ? inner - j : column_block;
            const size_t offset = o * axis * inner + j;
            run(axis, inner, columns, x + offset, y + offset, log);
        }
    }
    return FOVEA_STATUS_OK;
}
