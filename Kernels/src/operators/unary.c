/*
 * The exported unary kernels (activations, sigmoid): check, take the
 * config's kernel, split the range into one contiguous part per thread (part
 * boundaries on 16-float multiples, so threads never share a cache line).
 */
#include "../configs/config.h"

#include <math.h>
#include <string.h>

/* Checks a unary call over `count` floats; *run is 0 when there is nothing to do. */
static fovea_status check_unary(size_t count, const float *x, const float *y, int *run) {
    *run = 0;
    if (count == 0) return FOVEA_STATUS_OK;
    size_t bytes = 0;
    if (__builtin_mul_overflow(count, sizeof(float), &bytes) || bytes > (size_t)PTRDIFF_MAX) {
        return FOVEA_STATUS_TOO_LARGE;
    }
    if (x == NULL || y == NULL) return FOVEA_STATUS_NULL_POINTER;
    if (x != y && fovea_ranges_overlap(x, count, y, count)) return FOVEA_STATUS_INVALID_PARAMETER;
    *run = 1;
    return FOVEA_STATUS_OK;
}

/* The start of part `part` of `parts` over `count` floats (a multiple of 16, or count). */
static size_t part_start(size_t count, size_t parts, size_t part) {
    const size_t per = ((count + parts - 1) / parts + 15) / 16 * 16;
    const size_t start = part * per; /* at most count + 16·parts: no overflow */
    return start < count ? start : count;
}

/* One call's parts (contiguous element ranges), shared out by fovea_parallel_for. */
typedef struct activation_job {
    fovea_activation_fn apply;
    const fovea_epilogue *epilogue;
    size_t count, parts;
    const float *x;
    float *y;
} activation_job;

static void activation_parts(void *context, size_t first, size_t last) {
    const activation_job *j = (const activation_job *)context;
    for (size_t part = first; part < last; part++) {
        const size_t begin = part_start(j->count, j->parts, part), end = part_start(j->count, j->parts, part + 1);
        if (end > begin) j->apply(end - begin, j->x + begin, j->y + begin, j->epilogue);
    }
}

fovea_status fovea_activation_f32(const fovea_activation *activation, size_t count, const float *x, float *y,
                                  const fovea_threadpool *threadpool) {
    if (activation != NULL && (unsigned)activation->kind > (unsigned)FOVEA_ACTIVATION_LEAKY_RELU) {
        return FOVEA_STATUS_INVALID_PARAMETER;
    }
    int run = 0;
    const fovea_status status = check_unary(count, x, y, &run);
    if (status != FOVEA_STATUS_OK || !run) return status;
    if (fovea_epilogue_class_of(activation) == FOVEA_EPILOGUE_NONE) {
        if (x != y) memcpy(y, x, count * sizeof(float));
        return FOVEA_STATUS_OK;
    }
    const fovea_activation_fn apply = fovea_elementwise_config_active()->activation;
    const fovea_epilogue epilogue = fovea_epilogue_of(activation);
    const int t = fovea_threads_for(threadpool, (double)count);
    const activation_job job = {apply, &epilogue, count, (size_t)t, x, y};
    fovea_parallel_for(threadpool, t, (size_t)t, activation_parts, (void *)&job);
    return FOVEA_STATUS_OK;
}

typedef struct sigmoid_job {
    fovea_sigmoid_fn apply;
    size_t count, parts;
    const float *x;
    float *y;
} sigmoid_job;

static void sigmoid_parts(void *context, size_t first, size_t last) {
    const sigmoid_job *j = (const sigmoid_job *)context;
    for (size_t part = first; part < last; part++) {
        const size_t begin = part_start(j->count, j->parts, part), end = part_start(j->count, j->parts, part + 1);
        if (end > begin) j->apply(end - begin, j->x + begin, j->y + begin);
    }
}

fovea_status fovea_sigmoid_f32(size_t count, const float *x, float *y, const fovea_threadpool *threadpool) {
    int run = 0;
    const fovea_status status = check_unary(count, x, y, &run);
    if (status != FOVEA_STATUS_OK || !run) return status;
    const fovea_sigmoid_fn apply = fovea_elementwise_config_active()->sigmoid;
    const int t = fovea_threads_for(threadpool, 20.0 * (double)count);
    const sigmoid_job job = {apply, count, (size_t)t, x, y};
    fovea_parallel_for(threadpool, t, (size_t)t, sigmoid_parts, (void *)&job);
    return FOVEA_STATUS_OK;
}

/* Whether vector-math.h computes x^exponent itself (else powf, lane by lane). */
static int power_is_vectorized(float exponent) {
    return exponent == 2.0f || exponent == 3.0f || exponent == 0.5f || exponent == -1.0f || exponent == 1.0f;
}

/* Rough cost of one element in units of a copied element, for the threading threshold. */
static double unary_cost(fovea_unary_kind kind) {
    switch (kind) {
    case FOVEA_UNARY_ABS: case FOVEA_UNARY_NEG: case FOVEA_UNARY_FLOOR: case FOVEA_UNARY_CEIL:
    case FOVEA_UNARY_LINEAR: case FOVEA_UNARY_THRESHOLDED_RELU: case FOVEA_UNARY_THRESHOLD:
    case FOVEA_UNARY_HARD_SIGMOID: case FOVEA_UNARY_HARD_SWISH: case FOVEA_UNARY_SOFTSIGN:
        return 1.0;
    default:
        return 20.0;
    }
}

typedef struct unary_job {
    fovea_unary_fn apply;
    const fovea_unary *fn;
    int lane_power;
    size_t count, parts;
    const float *x;
    float *y;
} unary_job;

static void unary_parts(void *context, size_t first, size_t last) {
    const unary_job *j = (const unary_job *)context;
    for (size_t part = first; part < last; part++) {
        const size_t begin = part_start(j->count, j->parts, part), end = part_start(j->count, j->parts, part + 1);
        if (end <= begin) continue;
        if (j->lane_power) {
            for (size_t i = begin; i < end; i++) j->y[i] = powf(j->x[i], j->fn->alpha);
        } else {
            j->apply(j->fn, end - begin, j->x + begin, j->y + begin);
        }
    }
}

fovea_status fovea_unary_f32(const fovea_unary *function, size_t count, const float *x, float *y, const fovea_threadpool *threadpool) {
    if (function == NULL) return FOVEA_STATUS_NULL_POINTER;
    if ((unsigned)function->kind >= (unsigned)FOVEA_UNARY_KIND_COUNT) return FOVEA_STATUS_INVALID_PARAMETER;
    int run = 0;
    const fovea_status status = check_unary(count, x, y, &run);
    if (status != FOVEA_STATUS_OK || !run) return status;
    const fovea_unary fn = *function;
    const int lane_power = fn.kind == FOVEA_UNARY_POWER && !power_is_vectorized(fn.alpha);
    const fovea_unary_fn apply = fovea_elementwise_config_active()->unary;
    const int t = fovea_threads_for(threadpool, unary_cost(fn.kind) * (double)count);
    const unary_job job = {apply, &fn, lane_power, count, (size_t)t, x, y};
    fovea_parallel_for(threadpool, t, (size_t)t, unary_parts, (void *)&job);
    return FOVEA_STATUS_OK;
}

typedef struct layer_norm_job {
    fovea_layer_norm_fn apply;
    size_t outer, inner, per;
    const float *x, *scale, *bias;
    float epsilon;
    float *y;
} layer_norm_job;

static void layer_norm_parts(void *context, size_t first, size_t last) {
    const layer_norm_job *j = (const layer_norm_job *)context;
    for (size_t part = first; part < last; part++) {
        const size_t begin = part * j->per < j->outer ? part * j->per : j->outer;
        const size_t end = begin + j->per < j->outer ? begin + j->per : j->outer;
        if (end > begin) {
            j->apply(end - begin, j->inner, j->x + begin * j->inner, j->scale, j->bias, j->epsilon, j->y + begin * j->inner);
        }
    }
}

fovea_status fovea_layer_norm_f32(size_t outer, size_t inner, const float *x, const float *scale, const float *bias,
                                  float epsilon, float *y, const fovea_threadpool *threadpool) {
    size_t count = 0;
    if (__builtin_mul_overflow(outer, inner, &count)) return FOVEA_STATUS_TOO_LARGE;
    int run = 0;
    const fovea_status status = check_unary(count, x, y, &run);
    if (status != FOVEA_STATUS_OK || !run) return status;
    if (scale == NULL) return FOVEA_STATUS_NULL_POINTER;
    const fovea_layer_norm_fn apply = fovea_elementwise_config_active()->layernorm_rows;
    const int t = fovea_threads_for(threadpool, 4.0 * (double)count);
    const size_t parts = (size_t)t;
    const layer_norm_job job = {apply, outer, inner, (outer + parts - 1) / parts, x, scale, bias, epsilon, y};
    fovea_parallel_for(threadpool, t, parts, layer_norm_parts, (void *)&job);
    return FOVEA_STATUS_OK;
}
