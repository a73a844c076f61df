/*
 * The exported unary kernels (activations, sigmoid): check, pick the ISA
 * variant, split the range into one contiguous part per thread (part
 * boundaries on 16-float multiples, so threads never share a cache line).
 */
#include "elementwise.h"

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
