/*
 * The exported direct small-channel convolution: check the parameters, take
 * the config's tile, run it over the output rows (and blocks of output
 * channels when rows are few) in parallel (fovea_parallel_run).
 */
#include "../configs/config.h"

#include <stdint.h>

int fovea_conv2d_smallc_supports(const fovea_conv2d_params *p) {
    if (fovea_conv2d_check(p) != FOVEA_STATUS_OK) return 0;
    return p->groups == 1 && p->channels <= FOVEA_CONV_SMALLC_MAX_CHANNELS && p->kernel_height <= FOVEA_CONV_SMALLC_MAX_KERNEL &&
           p->kernel_width <= FOVEA_CONV_SMALLC_MAX_KERNEL && p->dilation_height == 1 &&
           p->dilation_width == 1 && p->stride_height <= 2 && p->stride_width <= 2;
}

size_t fovea_conv2d_smallc_workspace_size(const fovea_conv2d_params *p, size_t threads) {
    if (!fovea_conv2d_smallc_supports(p)) return 0;
    return fovea_smallc_scratch_floats(p) * (threads > 1 ? threads : 1) * sizeof(float);
}

/* One call's work, shared by its threads: items are (output row, channel block) pairs. */
typedef struct {
    const fovea_conv2d_params *p;
    fovea_conv_smallc_fn run;
    const float *x, *weights, *bias;
    float *y;
    size_t y_batch_stride;
    const fovea_epilogue *epilogue;
    float *scratch;
    size_t scratch_floats, items, blocks, block_size, in_image;
} smallc_run;

/* A contiguous range of items per thread, each thread with its own scratch rows. */
static void run_rows(void *context, size_t tid, size_t count) {
    const smallc_run *r = context;
    const fovea_conv2d_params *p = r->p;
    for (size_t item = r->items * tid / count; item < r->items * (tid + 1) / count; item++) {
        const size_t row = item / r->blocks, block = item % r->blocks;
        const size_t n = row / p->output_height, oh = row % p->output_height;
        const size_t m_begin = block * r->block_size < p->output_channels ? block * r->block_size : p->output_channels;
        const size_t m_end =
            m_begin + r->block_size < p->output_channels ? m_begin + r->block_size : p->output_channels;
        if (m_begin < m_end) {
            r->run(p, r->x + n * r->in_image, r->weights, r->bias, r->y + n * r->y_batch_stride, oh, m_begin, m_end,
                   r->epilogue, r->scratch + tid * r->scratch_floats);
        }
    }
}

fovea_status fovea_conv2d_smallc_f32(const fovea_conv2d_params *p, const float *weights, const float *bias,
                                     const float *x, float *y, size_t y_batch_stride,
                                     const fovea_activation *activation, void *workspace, size_t workspace_bytes,
                                     const fovea_threadpool *threadpool) {
    const fovea_status status = fovea_conv2d_check(p);
    if (status != FOVEA_STATUS_OK) return status;
    if (!fovea_conv2d_smallc_supports(p)) return FOVEA_STATUS_INVALID_PARAMETER;
    if (activation != NULL && (unsigned)activation->kind > (unsigned)FOVEA_ACTIVATION_LEAKY_RELU) {
        return FOVEA_STATUS_INVALID_PARAMETER;
    }
    if (weights == NULL || x == NULL || y == NULL || workspace == NULL) return FOVEA_STATUS_NULL_POINTER;
    if (workspace_bytes < fovea_conv2d_smallc_workspace_size(p, fovea_pool_threads(threadpool))) return FOVEA_STATUS_BUFFER_TOO_SMALL;
    const size_t out_plane = p->output_height * p->output_width;
    const size_t image = p->output_channels * out_plane;
    if (y_batch_stride < image) return FOVEA_STATUS_INVALID_PARAMETER;
    size_t span = 0, bytes = 0;
    if (__builtin_mul_overflow(p->batch - 1, y_batch_stride, &span) || __builtin_add_overflow(span, image, &span) ||
        __builtin_mul_overflow(span, sizeof(float), &bytes) || bytes > (size_t)PTRDIFF_MAX) {
        return FOVEA_STATUS_TOO_LARGE;
    }

    const fovea_conv_smallc_fn run = fovea_conv_smallc_config_active()->ukernel;
    const fovea_epilogue epilogue = fovea_epilogue_of(activation);
    const size_t taps = p->channels * p->kernel_height * p->kernel_width;
    const size_t rows = p->batch * p->output_height;
    const size_t in_image = p->channels * p->input_height * p->input_width;
    const int t = fovea_threads_for(threadpool, 2.0 * (double)p->batch * (double)image * (double)taps);
    /* At least 8 items per thread so a static split is even: blocks of 8 output channels when rows are few. */
    size_t blocks = 1;
    if (t > 1 && rows < 8 * (size_t)t) {
        const size_t most = (p->output_channels + 7) / 8;
        blocks = (8 * (size_t)t + rows - 1) / rows;
        if (blocks > most) blocks = most;
    }
    const size_t items = rows * blocks;
    const size_t block_channels = (p->output_channels + blocks - 1) / blocks;
    /* blocks of whole 8-channel groups, so every block but the last runs full tiles */
    const size_t block_size = (block_channels + 7) / 8 * 8;
    const size_t scratch_floats = fovea_smallc_scratch_floats(p);
    smallc_run r = {p, run, x, weights, bias, y, y_batch_stride, &epilogue, workspace, scratch_floats,
                    items, blocks, block_size, in_image};
    fovea_parallel_run(threadpool, t, run_rows, &r);
    return FOVEA_STATUS_OK;
}

const char *fovea_conv2d_smallc_kernel_name(const fovea_conv2d_params *p) {
    if (!fovea_conv2d_smallc_supports(p)) return NULL;
    return fovea_conv_smallc_config_active()->name;
}
