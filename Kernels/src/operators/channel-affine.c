/*
 * A per-channel multiply-add (an inference BatchNormalization left as a node)
 * with an optional activation: one pass over each channel plane, planes
 * split over the caller's pool. Plain C: the pass is bound by memory, and the
 * baseline x86-64 vector code the compiler makes from it keeps up with it.
 * The multiply and the add stay separate operations (no FMA on baseline
 * x86-64), as the reference backend computes them.
 */
#include "../microkernels/elementwise/elementwise.h"

static void affine_planes(size_t first, size_t end, size_t channels, size_t plane, const float *x,
                          const float *scale, const float *shift, float *y, const fovea_epilogue *epilogue, int plain) {
    for (size_t p = first; p < end; p++) {
        const size_t c = p % channels;
        const float a = scale[c], b = shift[c];
        const float *xp = x + p * plane;
        float *yp = y + p * plane;
        if (plain) {
            for (size_t i = 0; i < plane; i++) yp[i] = xp[i] * a + b;
        } else {
            for (size_t i = 0; i < plane; i++) yp[i] = fovea_epilogue_apply(epilogue, xp[i] * a + b);
        }
    }
}

/* One call's planes, shared out by fovea_parallel_for. */
typedef struct affine_job {
    size_t channels, plane;
    const float *x, *scale, *shift;
    float *y;
    const fovea_epilogue *epilogue;
    int plain;
} affine_job;

static void affine_job_planes(void *context, size_t begin, size_t end) {
    const affine_job *j = (const affine_job *)context;
    affine_planes(begin, end, j->channels, j->plane, j->x, j->scale, j->shift, j->y, j->epilogue, j->plain);
}

fovea_status fovea_channel_affine_f32(size_t batch, size_t channels, size_t plane, const float *x, const float *scale,
                                      const float *shift, float *y, const fovea_activation *activation,
                                      const fovea_threadpool *threadpool) {
    size_t planes = 0, count = 0, bytes = 0;
    if (__builtin_mul_overflow(batch, channels, &planes) || __builtin_mul_overflow(planes, plane, &count) ||
        __builtin_mul_overflow(count, sizeof(float), &bytes) || bytes > (size_t)PTRDIFF_MAX) {
        return FOVEA_STATUS_TOO_LARGE;
    }
    if (count == 0) return FOVEA_STATUS_OK;
    if (x == NULL || y == NULL || scale == NULL || shift == NULL) return FOVEA_STATUS_NULL_POINTER;
    if (x != y && fovea_ranges_overlap(x, count, y, count)) return FOVEA_STATUS_INVALID_PARAMETER;
    if (activation != NULL && (unsigned)activation->kind > (unsigned)FOVEA_ACTIVATION_LEAKY_RELU) {
        return FOVEA_STATUS_INVALID_PARAMETER;
    }
    const fovea_epilogue epilogue = fovea_epilogue_of(activation);
    const int plain = activation == NULL || activation->kind == FOVEA_ACTIVATION_NONE;
    const int t = fovea_threads_for(threadpool, (double)count);
    const affine_job job = {channels, plane, x, scale, shift, y, &epilogue, plain};
    fovea_parallel_for(threadpool, t, planes, affine_job_planes, (void *)&job);
    return FOVEA_STATUS_OK;
}
