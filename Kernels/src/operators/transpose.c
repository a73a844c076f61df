/*
 * fovea_transpose_f32: an axis permutation as copies.
 *
 * The permutation is first simplified (size-1 axes dropped, output axes whose
 * input axes stay adjacent merged), which turns the transformers' transposes
 * into one of two shapes:
 *  - the last axis stays last (ViT's heads split [t, h, d] -> [h, t, d]):
 *    copy runs of it with memcpy;
 *  - the contiguous axis moves (ConvNeXt's NCHW <-> NHWC, Swin's windows):
 *    a 2-D transpose between the input's last axis and the output's last
 *    axis, in 16×16 tiles so both sides touch whole cache lines.
 * The remaining ("outer") axes are an odometer; threads split its range.
 */
#include "fovea_transpose.h"
#include "../runtime/parallel.h"
#include "../runtime/runtime.h"

#include <stdint.h>
#include <string.h>

enum { tile = 16 };

/* The simplified permutation: output axis i has size dims[i], input stride in_strides[i], output stride out_strides[i]. */
typedef struct transpose_plan {
    size_t rank;
    size_t dims[FOVEA_TRANSPOSE_MAX_RANK];
    size_t in_strides[FOVEA_TRANSPOSE_MAX_RANK];
    size_t out_strides[FOVEA_TRANSPOSE_MAX_RANK];
    /* The outer odometer: the axes other than the copied ones, outermost first. */
    size_t outer_rank;
    size_t outer_axes[FOVEA_TRANSPOSE_MAX_RANK];
    size_t outer_count;
    int tiled;    /* the contiguous axis moves */
    size_t plane; /* tiled: the output axis that is the input's last axis */
    const float *x;
    float *y;
} transpose_plan;

static void make_plan(size_t rank, const size_t *shape, const size_t *perm, transpose_plan *p) {
    /* Input strides, then the output axes with size > 1, merging those whose input axes stay adjacent. */
    size_t stride[FOVEA_TRANSPOSE_MAX_RANK];
    size_t s = 1;
    for (size_t i = rank; i-- > 0;) {
        stride[i] = s;
        s *= shape[i];
    }
    size_t r = 0;
    for (size_t i = 0; i < rank; i++) {
        const size_t axis = perm[i], size = shape[axis];
        if (size == 1) continue;
        /* Mergeable: the previous kept output axis is input axis `axis - 1` plus only size-1 axes in between. */
        if (r > 0 && p->in_strides[r - 1] == stride[axis] * size) {
            p->dims[r - 1] *= size;
            p->in_strides[r - 1] = stride[axis];
            continue;
        }
        p->dims[r] = size;
        p->in_strides[r] = stride[axis];
        r++;
    }
    p->rank = r;
    s = 1;
    for (size_t i = r; i-- > 0;) {
        p->out_strides[i] = s;
        s *= p->dims[i];
    }
    p->tiled = r >= 2 && p->in_strides[r - 1] != 1;
    p->plane = 0;
    for (size_t i = 0; i < r; i++) {
        if (p->in_strides[i] == 1) p->plane = i;
    }
    p->outer_rank = 0;
    p->outer_count = 1;
    for (size_t i = 0; i + 1 < r; i++) {
        if (p->tiled && i == p->plane) continue;
        p->outer_axes[p->outer_rank++] = i;
        p->outer_count *= p->dims[i];
    }
}

/* out[x·out_stride + c] = in[x + c·in_stride] for x < rows, c < columns. */
static void transpose_plane(const float *in, size_t in_stride, float *out, size_t out_stride, size_t rows,
                            size_t columns) {
    for (size_t x0 = 0; x0 < rows; x0 += tile) {
        const size_t x1 = x0 + tile < rows ? x0 + tile : rows;
        for (size_t c0 = 0; c0 < columns; c0 += tile) {
            const size_t c1 = c0 + tile < columns ? c0 + tile : columns;
            if (x1 - x0 == tile && c1 - c0 == tile) {
                float block[tile][tile];
                for (size_t c = 0; c < tile; c++) {
                    const float *row = in + (c0 + c) * in_stride + x0;
                    for (size_t x = 0; x < tile; x++) block[x][c] = row[x];
                }
                for (size_t x = 0; x < tile; x++) memcpy(out + (x0 + x) * out_stride + c0, block[x], sizeof block[x]);
            } else {
                for (size_t x = x0; x < x1; x++) {
                    for (size_t c = c0; c < c1; c++) out[x * out_stride + c] = in[x + c * in_stride];
                }
            }
        }
    }
}

static void run_range(void *context, size_t begin, size_t end) {
    const transpose_plan *p = (const transpose_plan *)context;
    const size_t last = p->rank - 1;
    /* The odometer at `begin`. */
    size_t index[FOVEA_TRANSPOSE_MAX_RANK] = {0};
    size_t in = 0, out = 0, rest = begin;
    for (size_t j = p->outer_rank; j-- > 0;) {
        const size_t axis = p->outer_axes[j];
        index[j] = rest % p->dims[axis];
        rest /= p->dims[axis];
        in += index[j] * p->in_strides[axis];
        out += index[j] * p->out_strides[axis];
    }
    for (size_t t = begin; t < end; t++) {
        if (p->tiled) {
            transpose_plane(p->x + in, p->in_strides[last], p->y + out, p->out_strides[p->plane], p->dims[p->plane],
                            p->dims[last]);
        } else {
            memcpy(p->y + out, p->x + in, p->dims[last] * sizeof(float));
        }
        for (size_t j = p->outer_rank; j-- > 0;) {
            const size_t axis = p->outer_axes[j];
            in += p->in_strides[axis];
            out += p->out_strides[axis];
            if (++index[j] < p->dims[axis]) break;
            in -= p->dims[axis] * p->in_strides[axis];
            out -= p->dims[axis] * p->out_strides[axis];
            index[j] = 0;
        }
    }
}

fovea_status fovea_transpose_f32(size_t rank, const size_t *shape, const size_t *perm, const float *x, float *y,
                                 const fovea_threadpool *threadpool) {
    if (x == NULL || y == NULL || (rank > 0 && (shape == NULL || perm == NULL))) return FOVEA_STATUS_NULL_POINTER;
    if (rank > FOVEA_TRANSPOSE_MAX_RANK) return FOVEA_STATUS_INVALID_PARAMETER;
    int seen[FOVEA_TRANSPOSE_MAX_RANK] = {0};
    size_t count = 1;
    for (size_t i = 0; i < rank; i++) {
        if (perm[i] >= rank || seen[perm[i]]) return FOVEA_STATUS_INVALID_PARAMETER;
        seen[perm[i]] = 1;
        if (shape[i] > FOVEA_KERNELS_MAX_EXTENT) return FOVEA_STATUS_INVALID_PARAMETER;
    }
    for (size_t i = 0; i < rank; i++) {
        if (__builtin_mul_overflow(count, shape[i], &count)) return FOVEA_STATUS_TOO_LARGE;
    }
    if (count > (size_t)PTRDIFF_MAX / sizeof(float)) return FOVEA_STATUS_TOO_LARGE;
    if (count == 0) return FOVEA_STATUS_OK;
    transpose_plan p;
    make_plan(rank, shape, perm, &p);
    p.x = x;
    p.y = y;
    if (p.rank <= 1) {
        memcpy(y, x, count * sizeof(float));
        return FOVEA_STATUS_OK;
    }
    const int count_threads = fovea_threads_for(threadpool, (double)count);
    if (count_threads <= 1 || p.outer_count == 1) {
        run_range(&p, 0, p.outer_count);
    } else {
        fovea_parallel_for(threadpool, count_threads, p.outer_count, run_range, &p);
    }
    return FOVEA_STATUS_OK;
}
