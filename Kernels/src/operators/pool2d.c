/*
 * The exported 2-D pooling entry points: check the parameters, take the
 * config's kernel, run it over the N×C planes (in parallel on the caller's pool).
 */
#include "../configs/config.h"

#include <stdint.h>

/* a*b*c*d floats, or 0 with *overflow set if the byte count does not fit in ptrdiff_t. */
static size_t float_count(size_t a, size_t b, size_t c, size_t d, int *overflow) {
    size_t n = 0, bytes = 0;
    if (__builtin_mul_overflow(a, b, &n) || __builtin_mul_overflow(n, c, &n) || __builtin_mul_overflow(n, d, &n) ||
        __builtin_mul_overflow(n, sizeof(float), &bytes) || bytes > (size_t)PTRDIFF_MAX) {
        *overflow = 1;
        return 0;
    }
    return n;
}

/*
 * Checks everything the variants rely on. Sets *output_count to the number of
 * output elements (0: nothing to do).
 */
static fovea_status check_pool2d(const fovea_pool2d_params *p, const float *x, const float *y, size_t *output_count) {
    *output_count = 0;
    if (p == NULL) return FOVEA_STATUS_NULL_POINTER;
    if (p->kernel_height == 0 || p->kernel_width == 0 || p->stride_height == 0 || p->stride_width == 0 ||
        p->dilation_height == 0 || p->dilation_width == 0) {
        return FOVEA_STATUS_INVALID_PARAMETER;
    }
    const size_t extents[] = {p->input_height, p->input_width, p->output_height, p->output_width,
                              p->kernel_height, p->kernel_width, p->stride_height, p->stride_width,
                              p->dilation_height, p->dilation_width, p->pad_top, p->pad_left,
                              p->pad_bottom, p->pad_right};
    for (size_t i = 0; i < sizeof extents / sizeof extents[0]; i++) {
        if (extents[i] > FOVEA_KERNELS_MAX_EXTENT) return FOVEA_STATUS_INVALID_PARAMETER;
    }
    int overflow = 0;
    (void)float_count(p->batch, p->channels, p->input_height, p->input_width, &overflow);
    const size_t outputs = float_count(p->batch, p->channels, p->output_height, p->output_width, &overflow);
    if (overflow) return FOVEA_STATUS_TOO_LARGE;
    if (outputs == 0) return FOVEA_STATUS_OK;
    if (x == NULL || y == NULL) return FOVEA_STATUS_NULL_POINTER;
    /* Windows that cover only padding are allowed: they give -FLT_MAX (max) or 0 (average), as the reference. */
    *output_count = outputs;
    return FOVEA_STATUS_OK;
}

/* One call's planes, shared out by fovea_parallel_for. */
typedef struct pool2d_job {
    const fovea_pool2d_params *p;
    fovea_pool2d_plane_fn pool_plane;
    const float *x;
    float *y;
    size_t input_plane, output_plane;
} pool2d_job;

static void pool2d_planes(void *context, size_t begin, size_t end) {
    const pool2d_job *j = (const pool2d_job *)context;
    for (size_t plane = begin; plane < end; plane++) {
        j->pool_plane(j->p, j->x + plane * j->input_plane, j->y + plane * j->output_plane);
    }
}

static fovea_status run_pool2d(fovea_pool2d_plane_fn pool_plane, const fovea_pool2d_params *p,
                               const float *x, float *y, const fovea_threadpool *threadpool) {
    size_t output_count = 0;
    const fovea_status status = check_pool2d(p, x, y, &output_count);
    if (status != FOVEA_STATUS_OK || output_count == 0) return status;

    const size_t planes = p->batch * p->channels;
    const size_t input_plane = p->input_height * p->input_width;
    const size_t output_plane = p->output_height * p->output_width;
    const double work = (double)output_count * (double)p->kernel_height * (double)p->kernel_width;
    const int t = fovea_threads_for(threadpool, work); /* this call's count: never a process-wide setting */
    const pool2d_job job = {p, pool_plane, x, y, input_plane, output_plane};
    fovea_parallel_for(threadpool, t, planes, pool2d_planes, (void *)&job);
    return FOVEA_STATUS_OK;
}

fovea_status fovea_maxpool2d_f32(const fovea_pool2d_params *params, const float *x, float *y, const fovea_threadpool *threadpool) {
    return run_pool2d(fovea_pool_config_active()->maxpool2d, params, x, y, threadpool);
}

fovea_status fovea_avgpool2d_f32(const fovea_pool2d_params *params, const float *x, float *y, const fovea_threadpool *threadpool) {
    return run_pool2d(fovea_pool_config_active()->avgpool2d, params, x, y, threadpool);
}
