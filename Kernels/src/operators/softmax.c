/*
 * The exported Softmax / LogSoftmax: check, take the config's kernels, run it over
 * the slices in parallel: one row per outer index when inner == 1, else
 * blocks of up to 64 neighbouring slices (contiguous runs of the inner
 * dimension) per outer index.
 */
#include "../configs/config.h"

#include <stdint.h>

enum { column_block = 64 };

/* One call's rows or column blocks, shared out by fovea_parallel_for. */
typedef struct softmax_job {
    fovea_softmax_row_fn row;
    fovea_softmax_columns_fn columns;
    size_t axis, inner, blocks;
    const float *x;
    float *y;
    int log;
} softmax_job;

static void softmax_rows(void *context, size_t begin, size_t end) {
    const softmax_job *j = (const softmax_job *)context;
    for (size_t o = begin; o < end; o++) j->row(j->axis, j->x + o * j->axis, j->y + o * j->axis, j->log);
}

static void softmax_column_blocks(void *context, size_t begin, size_t end) {
    const softmax_job *j = (const softmax_job *)context;
    for (size_t item = begin; item < end; item++) {
        const size_t o = item / j->blocks, c = item % j->blocks * column_block;
        const size_t columns = j->inner - c < column_block ? j->inner - c : column_block;
        const size_t offset = o * j->axis * j->inner + c;
        j->columns(j->axis, j->inner, columns, j->x + offset, j->y + offset, j->log);
    }
}

fovea_status fovea_softmax_f32(size_t outer, size_t axis, size_t inner, const float *x, float *y, int log,
                               const fovea_threadpool *threadpool) {
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
    const fovea_softmax_config *config = fovea_softmax_config_active();
    const int t = fovea_threads_for(threadpool, 24.0 * (double)count);
    softmax_job job = {config->row, config->columns, axis, inner, 0, x, y, log};
    if (inner == 1) {
        fovea_parallel_for(threadpool, t, outer, softmax_rows, &job);
    } else {
        job.blocks = (inner + column_block - 1) / column_block;
        fovea_parallel_for(threadpool, t, outer * job.blocks, softmax_column_blocks, &job);
    }
    return FOVEA_STATUS_OK;
}
