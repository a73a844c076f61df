/*
 * The exported depthwise convolution: check the parameters, take the kernel
 * for the shape from the config, run it over the output planes (and row bands of
 * them when planes are few) in parallel on the caller's pool.
 */
#include "../configs/config.h"

#include <stdint.h>

static fovea_dwconv_kind kind_of(const fovea_conv2d_params *p) {
    if (p->kernel_height != p->kernel_width || p->stride_height != p->stride_width || p->dilation_height != 1 ||
        p->dilation_width != 1 || p->stride_height > 2) {
        return FOVEA_DWCONV_KXK;
    }
    const int s2 = p->stride_height == 2;
    switch (p->kernel_height) {
    case 3: return s2 ? FOVEA_DWCONV_3X3S2 : FOVEA_DWCONV_3X3S1;
    case 5: return s2 ? FOVEA_DWCONV_5X5S2 : FOVEA_DWCONV_5X5S1;
    case 7: return s2 ? FOVEA_DWCONV_7X7S2 : FOVEA_DWCONV_7X7S1;
    default: return FOVEA_DWCONV_KXK;
    }
}

/* a*b*c*d without overflow of the byte count (ptrdiff_t); *overflow set otherwise. */
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
 * The shape checks every convolution makes (fovea_conv2d_check's rules) plus
 * the depthwise ones: groups == channels, output_channels a non-zero multiple
 * of channels. Sets *outputs to 0 when there is nothing to compute.
 */
static fovea_status check_shape(const fovea_conv2d_params *p, size_t *outputs) {
    *outputs = 0;
    if (p == NULL) return FOVEA_STATUS_NULL_POINTER;
    if (p->kernel_height == 0 || p->kernel_width == 0 || p->stride_height == 0 || p->stride_width == 0 ||
        p->dilation_height == 0 || p->dilation_width == 0) {
        return FOVEA_STATUS_INVALID_PARAMETER;
    }
    const size_t extents[] = {p->input_height, p->input_width, p->output_height, p->output_width,
                              p->kernel_height, p->kernel_width, p->stride_height, p->stride_width,
                              p->dilation_height, p->dilation_width, p->pad_top, p->pad_left};
    for (size_t i = 0; i < sizeof extents / sizeof extents[0]; i++) {
        if (extents[i] > FOVEA_KERNELS_MAX_EXTENT) return FOVEA_STATUS_INVALID_PARAMETER;
    }
    if (p->groups != p->channels) return FOVEA_STATUS_INVALID_PARAMETER;
    if (p->channels == 0) {
        if (p->output_channels != 0) return FOVEA_STATUS_INVALID_PARAMETER;
    } else if (p->output_channels == 0 || p->output_channels % p->channels != 0) {
        return FOVEA_STATUS_INVALID_PARAMETER;
    }
    int overflow = 0;
    (void)float_count(p->batch, p->channels, p->input_height, p->input_width, &overflow);
    (void)float_count(p->output_channels, p->kernel_height, p->kernel_width, 1, &overflow);
    *outputs = float_count(p->batch, p->output_channels, p->output_height, p->output_width, &overflow);
    if (overflow) {
        *outputs = 0;
        return FOVEA_STATUS_TOO_LARGE;
    }
    return FOVEA_STATUS_OK;
}

/* One call's work items (row bands of output planes), shared out by fovea_parallel_for. */
typedef struct depthwise_job {
    const fovea_conv2d_params *p;
    fovea_dwconv_fn run;
    size_t bands, multiplier, in_plane, out_plane, out_height, taps;
    const float *x, *weights, *bias;
    float *y;
    size_t y_batch_stride;
    const fovea_epilogue *epilogue;
} depthwise_job;

static void depthwise_items(void *context, size_t begin, size_t end) {
    const depthwise_job *j = (const depthwise_job *)context;
    const fovea_conv2d_params *p = j->p;
    for (size_t item = begin; item < end; item++) {
        const size_t plane = item / j->bands, band = item % j->bands;
        const size_t n = plane / p->output_channels, m = plane % p->output_channels;
        const float *x_plane = j->x + (n * p->channels + m / j->multiplier) * j->in_plane;
        float *y_plane = j->y + n * j->y_batch_stride + m * j->out_plane;
        const size_t row_begin = band * j->out_height / j->bands, row_end = (band + 1) * j->out_height / j->bands;
        j->run(p, x_plane, j->weights + m * j->taps, j->bias != NULL ? j->bias[m] : 0.0f, y_plane, row_begin, row_end,
               j->epilogue);
    }
}

fovea_status fovea_depthwise_conv2d_f32(const fovea_conv2d_params *p, const float *weights, const float *bias,
                                        const float *x, float *y, size_t y_batch_stride,
                                        const fovea_activation *activation, const fovea_threadpool *threadpool) {
    size_t outputs = 0;
    const fovea_status status = check_shape(p, &outputs);
    if (status != FOVEA_STATUS_OK) return status;
    if (activation != NULL && (unsigned)activation->kind > (unsigned)FOVEA_ACTIVATION_LEAKY_RELU) {
        return FOVEA_STATUS_INVALID_PARAMETER;
    }
    if (outputs == 0) return FOVEA_STATUS_OK;

    const size_t in_plane = p->input_height * p->input_width;
    const size_t out_plane = p->output_height * p->output_width;
    const size_t image = p->output_channels * out_plane;
    if (weights == NULL || y == NULL || (x == NULL && in_plane != 0)) return FOVEA_STATUS_NULL_POINTER;
    if (y_batch_stride < image) return FOVEA_STATUS_INVALID_PARAMETER;
    size_t span = 0, bytes = 0;
    if (__builtin_mul_overflow(p->batch - 1, y_batch_stride, &span) || __builtin_add_overflow(span, image, &span) ||
        __builtin_mul_overflow(span, sizeof(float), &bytes) || bytes > (size_t)PTRDIFF_MAX) {
        return FOVEA_STATUS_TOO_LARGE;
    }

    const fovea_dwconv_fn run = fovea_dwconv_config_active()->kinds[kind_of(p)].run;
    const fovea_epilogue epilogue = fovea_epilogue_of(activation);
    const size_t taps = p->kernel_height * p->kernel_width;
    const size_t multiplier = p->output_channels / p->channels;
    const size_t planes = p->batch * p->output_channels;
    const size_t out_height = p->output_height;

    const int t = fovea_threads_for(threadpool, 2.0 * (double)outputs * (double)taps);
    /*
     * At least 8 equal work items per thread, so a static split is even: row
     * bands of a plane when planes are few (each band of 8 rows or more, as a
     * band re-reads the kernel_height - 1 input rows above it).
     */
    size_t bands = 1;
    if (t > 1 && planes < 8 * (size_t)t) {
        bands = (8 * (size_t)t + planes - 1) / planes;
        const size_t most = out_height / 8 > 0 ? out_height / 8 : 1;
        if (bands > most) bands = most;
    }
    if (in_plane == 0) {
        /* An empty input (x may be NULL): every window is padding, so each output is
         * its channel's bias through the activation. Filled here, because the kernels
         * offset x before they know that no row is in range. */
        for (size_t plane = 0; plane < planes; plane++) {
            const size_t n = plane / p->output_channels, m = plane % p->output_channels;
            const float value = fovea_epilogue_apply(&epilogue, bias != NULL ? bias[m] : 0.0f);
            float *y_plane = y + n * y_batch_stride + m * out_plane;
            for (size_t i = 0; i < out_plane; i++) y_plane[i] = value;
        }
        return FOVEA_STATUS_OK;
    }
    const size_t items = planes * bands;
    const depthwise_job job = {p, run, bands, multiplier, in_plane, out_plane, out_height, taps, x, weights, bias, y,
                               y_batch_stride, &epilogue};
    fovea_parallel_for(threadpool, t, items, depthwise_items, (void *)&job);
    return FOVEA_STATUS_OK;
}

const char *fovea_depthwise_kernel_name(const fovea_conv2d_params *p) {
    size_t outputs = 0;
    if (check_shape(p, &outputs) != FOVEA_STATUS_OK) return NULL;
    return fovea_dwconv_config_active()->kinds[kind_of(p)].name;
}
