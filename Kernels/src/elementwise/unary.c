/*
 * The exported unary kernels (activations, sigmoid): check, pick the ISA
 * variant, split the range into one contiguous part per thread (part
 * boundaries on 16-float multiples, so threads never share a cache line).
 */
#include "elementwise.h"

#include <math.h>
#include <string.h>

static const fovea_activation_fn activation_variants[FOVEA_ISA_COUNT] = {
    fovea_activation_f32__scalar,
#if FOVEA_HAVE_X86_VARIANTS
    fovea_activation_f32__avx2,
    fovea_activation_f32__avx512,
#else
    fovea_activation_f32__scalar,
    fovea_activation_f32__scalar,
#endif
};

static const fovea_sigmoid_fn sigmoid_variants[FOVEA_ISA_COUNT] = {
    fovea_sigmoid_f32__scalar,
#if FOVEA_HAVE_X86_VARIANTS
    fovea_sigmoid_f32__avx2,
    fovea_sigmoid_f32__avx512,
#else
    fovea_sigmoid_f32__scalar,
    fovea_sigmoid_f32__scalar,
#endif
};

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

fovea_status fovea_activation_f32(const fovea_activation *activation, size_t count, const float *x, float *y,
                                  size_t threads) {
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
    const fovea_activation_fn apply = activation_variants[fovea_active_isa()];
    const fovea_epilogue epilogue = fovea_epilogue_of(activation);
    const int t = fovea_threads_for(threads, (double)count);
    const size_t parts = (size_t)t;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) num_threads(t) if (t > 1)
#endif
    for (size_t part = 0; part < parts; part++) {
        const size_t begin = part_start(count, parts, part), end = part_start(count, parts, part + 1);
        if (end > begin) apply(end - begin, x + begin, y + begin, &epilogue);
    }
    return FOVEA_STATUS_OK;
}

fovea_status fovea_sigmoid_f32(size_t count, const float *x, float *y, size_t threads) {
    int run = 0;
    const fovea_status status = check_unary(count, x, y, &run);
    if (status != FOVEA_STATUS_OK || !run) return status;
    const fovea_sigmoid_fn apply = sigmoid_variants[fovea_active_isa()];
    const int t = fovea_threads_for(threads, 20.0 * (double)count);
    const size_t parts = (size_t)t;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) num_threads(t) if (t > 1)
#endif
    for (size_t part = 0; part < parts; part++) {
        const size_t begin = part_start(count, parts, part), end = part_start(count, parts, part + 1);
        if (end > begin) apply(end - begin, x + begin, y + begin);
    }
    return FOVEA_STATUS_OK;
}

static const fovea_unary_fn unary_variants[FOVEA_ISA_COUNT] = {
    fovea_unary_f32__scalar,
#if FOVEA_HAVE_X86_VARIANTS
    fovea_unary_f32__avx2,
    fovea_unary_f32__avx512,
#else
    fovea_unary_f32__scalar,
    fovea_unary_f32__scalar,
#endif
};

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

fovea_status fovea_unary_f32(const fovea_unary *function, size_t count, const float *x, float *y, size_t threads) {
    if (function == NULL) return FOVEA_STATUS_NULL_POINTER;
    if ((unsigned)function->kind >= (unsigned)FOVEA_UNARY_KIND_COUNT) return FOVEA_STATUS_INVALID_PARAMETER;
    int run = 0;
    const fovea_status status = check_unary(count, x, y, &run);
    if (status != FOVEA_STATUS_OK || !run) return status;
    const fovea_unary fn = *function;
    const int lane_power = fn.kind == FOVEA_UNARY_POWER && !power_is_vectorized(fn.alpha);
    const fovea_unary_fn apply = unary_variants[fovea_active_isa()];
    const int t = fovea_threads_for(threads, unary_cost(fn.kind) * (double)count);
    const size_t parts = (size_t)t;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) num_threads(t) if (t > 1)
#endif
    for (size_t part = 0; part < parts; part++) {
        const size_t begin = part_start(count, parts, part), end = part_start(count, parts, part + 1);
        if (end <= begin) continue;
        if (lane_power) {
            for (size_t i = begin; i < end; i++) y[i] = powf(x[i], fn.alpha);
        } else {
            apply(&fn, end - begin, x + begin, y + begin);
        }
    }
    return FOVEA_STATUS_OK;
}

static const fovea_layer_norm_fn layer_norm_variants[FOVEA_ISA_COUNT] = {
    fovea_layer_norm_rows__scalar,
#if FOVEA_HAVE_X86_VARIANTS
    fovea_layer_norm_rows__avx2,
    fovea_layer_norm_rows__avx512,
#else
    fovea_layer_norm_rows__scalar,
    fovea_layer_norm_rows__scalar,
#endif
};

fovea_status fovea_layer_norm_f32(size_t outer, size_t inner, const float *x, const float *scale, const float *bias,
                                  float epsilon, float *y, size_t threads) {
    size_t count = 0;
    if (__builtin_mul_overflow(outer, inner, &count)) return FOVEA_STATUS_TOO_LARGE;
    int run = 0;
    const fovea_status status = check_unary(count, x, y, &run);
    if (status != FOVEA_STATUS_OK || !run) return status;
    if (scale == NULL) return FOVEA_STATUS_NULL_POINTER;
    const fovea_layer_norm_fn apply = layer_norm_variants[fovea_active_isa()];
    const int t = fovea_threads_for(threads, 4.0 * (double)count);
    const size_t parts = (size_t)t, per = (outer + parts - 1) / parts;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) num_threads(t) if (t > 1)
#endif
    for (size_t part = 0; part < parts; part++) {
        const size_t begin = part * per < outer ? part * per : outer;
        const size_t end = begin + per < outer ? begin + per : outer;
        if (end > begin) apply(end - begin, inner, x + begin * inner, scale, bias, epsilon, y + begin * inner);
    }
    return FOVEA_STATUS_OK;
}
