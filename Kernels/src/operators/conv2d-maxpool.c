/*
 * The GEMM convolution and the max pooling after it as one kernel (see
 * fovea_conv_maxpool.h). Work is split by (image, range of pooled rows); a
 * thread walks its range in bands of pooled rows. Each band needs a window
 * of convolution rows, computed into a rolling buffer
 * (output_channels × rows × output_width, row stride output_width so a
 * band's pixels are contiguous GEMM columns): the rows the previous band
 * already has are moved to the front, only the new ones are packed
 * (fovea_im2col_pack) and multiplied, and the band is pooled with the
 * pooling variant's per-plane code, as if the buffer were a short plane.
 * The buffer stays in L2, so neither the convolution's output nor the
 * pooling's input goes through memory.
 */
#include "fovea_conv_maxpool.h"

#include "conv2d.h"
#include "../runtime/parallel.h"
#include "../runtime/runtime.h"

#include <string.h>

/* Reduction depth per microkernel call, as conv2d.c. */
enum { K_BLOCK = 512 };
/* The rolling buffer's budget: with the packed columns it stays in a 1 MB L2. */
static const size_t buffer_budget_floats = 64 * 1024;

static size_t min_size(size_t a, size_t b) { return a < b ? a : b; }
static size_t round_up(size_t value, size_t multiple) { return (value + multiple - 1) / multiple * multiple; }

/* fp32 weights only: bf16-packed weights run in conv2d.c alone (a mismatch here). */
static const fovea_conv_header *header_of(const void *packed) {
    const fovea_conv_header *h = packed;
    return h != NULL && h->magic == FOVEA_CONV_MAGIC && h->isa < FOVEA_ISA_COUNT &&
                   h->precision == FOVEA_PRECISION_F32
               ? h
               : NULL;
}

static int pool_is_valid(const fovea_pool2d_params *q) {
    if (q->kernel_height == 0 || q->kernel_width == 0 || q->stride_height == 0 || q->stride_width == 0 ||
        q->dilation_height == 0 || q->dilation_width == 0 || q->output_height == 0 || q->output_width == 0) {
        return 0;
    }
    const size_t extents[] = {q->output_height, q->output_width, q->kernel_height, q->kernel_width,
                              q->stride_height, q->stride_width, q->dilation_height, q->dilation_width,
                              q->pad_top, q->pad_left, q->pad_bottom, q->pad_right};
    for (size_t i = 0; i < sizeof extents / sizeof extents[0]; i++) {
        if (extents[i] > FOVEA_KERNELS_MAX_EXTENT) return 0;
    }
    return 1;
}

int fovea_conv2d_maxpool_supported(const fovea_conv2d_params *conv, const fovea_pool2d_params *pool) {
    if (conv == NULL || pool == NULL || fovea_conv2d_check(conv) != FOVEA_STATUS_OK) return 0;
    return conv->groups == 1 && !fovea_conv_uses_pixel_rows(conv, fovea_conv_config_active()) && pool_is_valid(pool) &&
           pool->batch == conv->batch && pool->channels == conv->output_channels &&
           pool->input_height == conv->output_height && pool->input_width == conv->output_width;
}

/* Convolution rows [first, end) that pooled rows [p0, p1) read (clipped to the plane). */
static void conv_rows_for(const fovea_pool2d_params *q, size_t p0, size_t p1, size_t *first, size_t *end) {
    const int64_t start = (int64_t)(p0 * q->stride_height) - (int64_t)q->pad_top;
    const int64_t stop = (int64_t)((p1 - 1) * q->stride_height) - (int64_t)q->pad_top +
                         (int64_t)((q->kernel_height - 1) * q->dilation_height) + 1;
    const int64_t rows = (int64_t)q->input_height;
    *first = (size_t)(start < 0 ? 0 : start > rows ? rows : start);
    *end = (size_t)(stop < 0 ? 0 : stop > rows ? rows : stop);
    if (*end < *first) *end = *first;
}

/* How a run is cut: pooled rows per band, the buffer's rows, floats per thread. */
typedef struct band_plan {
    size_t band;        /* pooled rows per band */
    size_t buffer_rows; /* convolution rows the buffer holds */
    size_t pack_floats; /* packed im2col columns of one band's new rows */
    size_t buffer_floats;
    size_t thread_floats;
} band_plan;

static band_plan plan_bands(const fovea_conv_header *h, const fovea_pool2d_params *q) {
    const size_t ow = q->input_width, m = h->group_outputs;
    const size_t window = (q->kernel_height - 1) * q->dilation_height + 1;
    band_plan b;
    b.band = 1;
    /* Grow the band while its rows fit the budget (a band needs (band-1)·stride + window rows). */
    while (b.band < q->output_height &&
           (b.band * q->stride_height + window) * ow * m <= buffer_budget_floats) {
        b.band++;
    }
    b.buffer_rows = (b.band - 1) * q->stride_height + window;
    const size_t nr = fovea_gemm_config_for((fovea_isa)h->isa)->nr;
    b.pack_floats = round_up(h->reduction * round_up(b.buffer_rows * ow, nr), 16);
    b.buffer_floats = round_up(m * b.buffer_rows * ow, 16);
    b.thread_floats = b.pack_floats + b.buffer_floats;
    return b;
}

size_t fovea_conv2d_maxpool_workspace_size(const void *packed, const fovea_pool2d_params *pool, size_t threads) {
    const fovea_conv_header *h = header_of(packed);
    if (h == NULL || !fovea_conv2d_maxpool_supported(&h->params, pool) || h->pixel_rows) return 0;
    if (threads < 1) threads = 1;
    return plan_bands(h, pool).thread_floats * threads * sizeof(float);
}

typedef struct fused_run {
    const fovea_conv_header *h;
    const fovea_conv2d_params *p;
    const fovea_pool2d_params *q;
    const fovea_gemm_config *config;
    fovea_pool2d_plane_fn pool_plane;
    const float *panels, *bias, *x;
    float *y;
    fovea_epilogue epilogue;
    band_plan b;
    size_t chunks; /* pooled-row ranges per image */
    float *workspace;
} fused_run;

/* Convolution rows [first, end) of image n into buffer rows from `row0` on (buffer row = conv row − row0). */
static void convolve_rows(const fused_run *r, size_t n, size_t first, size_t end, size_t row0, float *pack,
                          float *buffer) {
    if (first >= end) return;
    const fovea_conv2d_params *p = r->p;
    const size_t ow = p->output_width, k = r->h->reduction, m = r->h->group_outputs;
    const size_t mr = r->config->mr, nr = r->config->nr, ldc = r->b.buffer_rows * ow;
    const size_t n0 = first * ow, columns = (end - first) * ow;
    fovea_im2col_pack(p, r->x + n * p->channels * p->input_height * p->input_width, 0, n0, columns, nr,
                      fovea_conv_config_for((fovea_isa)r->h->isa), pack);
    const fovea_gemm_config *narrow = r->config->narrow;
    const size_t row_panels = (m + mr - 1) / mr;
    for (size_t k0 = 0; k0 < k; k0 += K_BLOCK) {
        const size_t kc = min_size(k - k0, K_BLOCK);
        const int first_block = k0 == 0, last_block = k0 + kc == k;
        for (size_t ip = 0; ip < row_panels; ip++) {
            const size_t rows = min_size(mr, m - ip * mr);
            const float *a = r->panels + ip * mr * k + k0 * mr;
            const float *bias = first_block ? r->bias + ip * mr : NULL;
            const fovea_epilogue *epilogue = last_block ? &r->epilogue : NULL;
            for (size_t c0 = 0; c0 < columns; c0 += nr) {
                const size_t width = min_size(nr, columns - c0);
                const float *b = pack + c0 * k + k0 * nr;
                float *c = buffer + ip * mr * ldc + (first - row0) * ow + c0;
                if (narrow != NULL && width <= narrow->nr) {
                    narrow->ukernel_ldb(rows, width, kc, a, b, nr, c, ldc, bias, !first_block, epilogue);
                } else {
                    r->config->ukernel(rows, width, kc, a, b, c, ldc, bias, !first_block, epilogue);
                }
            }
        }
    }
}

/* Pooled rows [p0, p1) of image n, band by band, keeping the rows consecutive bands share. */
static void run_rows(const fused_run *r, size_t n, size_t p0, size_t p1, float *pack, float *buffer) {
    const fovea_pool2d_params *q = r->q;
    const size_t ow = q->input_width, m = r->h->group_outputs, ldc = r->b.buffer_rows * ow;
    const size_t out_plane = q->output_height * q->output_width;
    size_t have_first = 0, have_end = 0; /* convolution rows in the buffer, from buffer row 0 */
    for (size_t b0 = p0; b0 < p1; b0 += r->b.band) {
        const size_t b1 = min_size(p1, b0 + r->b.band);
        size_t first, end;
        conv_rows_for(q, b0, b1, &first, &end);
        /* Keep the rows this band shares with the last one (moved to the front), compute the rest. */
        size_t kept_end = first;
        if (have_end > have_first && first >= have_first && first < have_end) {
            kept_end = min_size(have_end, end);
            if (first > have_first) {
                for (size_t c = 0; c < m; c++) {
                    float *plane = buffer + c * ldc;
                    memmove(plane, plane + (first - have_first) * ow, (kept_end - first) * ow * sizeof(float));
                }
            }
        }
        convolve_rows(r, n, kept_end, end, first, pack, buffer);
        have_first = first;
        have_end = end;

        /* The band's pooling: the buffer is a plane of end − first rows whose windows start pad_top' rows up. */
        fovea_pool2d_params band = *q;
        band.batch = 1;
        band.channels = 1;
        band.input_height = end - first;
        band.output_height = b1 - b0;
        const int64_t window_top = (int64_t)(b0 * q->stride_height) - (int64_t)q->pad_top;
        band.pad_top = (size_t)((int64_t)first - window_top);
        const int64_t window_end = (int64_t)((b1 - 1 - b0) * q->stride_height) - (int64_t)band.pad_top +
                                   (int64_t)((q->kernel_height - 1) * q->dilation_height) + 1;
        band.pad_bottom = window_end > (int64_t)band.input_height ? (size_t)(window_end - (int64_t)band.input_height) : 0;
        float *y = r->y + n * m * out_plane + b0 * q->output_width;
        if (band.input_height == 0) {
            /* Windows of padding only: -FLT_MAX, as the pooling kernels give. */
            for (size_t c = 0; c < m; c++)
                for (size_t i = 0; i < band.output_height * q->output_width; i++) y[c * out_plane + i] = -FLT_MAX;
            continue;
        }
        for (size_t c = 0; c < m; c++) r->pool_plane(&band, buffer + c * ldc, y + c * out_plane);
    }
}

static void run_share(void *context, size_t tid, size_t count) {
    const fused_run *r = (const fused_run *)context;
    float *pack = r->workspace + tid * r->b.thread_floats, *buffer = pack + r->b.pack_floats;
    const size_t units = r->p->batch * r->chunks, first = units * tid / count, end = units * (tid + 1) / count;
    const size_t rows = r->q->output_height;
    for (size_t u = first; u < end; u++) {
        const size_t n = u / r->chunks, chunk = u % r->chunks;
        run_rows(r, n, rows * chunk / r->chunks, rows * (chunk + 1) / r->chunks, pack, buffer);
    }
}

fovea_status fovea_conv2d_maxpool_f32(const fovea_conv2d_params *conv, const void *packed,
                                      const fovea_pool2d_params *pool, const float *x, float *y, const float *bias,
                                      const fovea_activation *activation, void *workspace, size_t workspace_bytes,
                                      const fovea_threadpool *threadpool) {
    if (conv == NULL || pool == NULL) return FOVEA_STATUS_NULL_POINTER;
    const fovea_status status = fovea_conv2d_check(conv);
    if (status != FOVEA_STATUS_OK) return status;
    if (!fovea_conv2d_maxpool_supported(conv, pool)) return FOVEA_STATUS_INVALID_PARAMETER;
    if (packed == NULL || x == NULL || y == NULL || workspace == NULL) return FOVEA_STATUS_NULL_POINTER;
    const fovea_conv_header *h = header_of(packed);
    if (h == NULL || h->pixel_rows || memcmp(&h->params, conv, sizeof *conv) != 0) return FOVEA_STATUS_PACKING_MISMATCH;
    if (workspace_bytes < fovea_conv2d_maxpool_workspace_size(packed, pool, fovea_pool_threads(threadpool))) {
        return FOVEA_STATUS_BUFFER_TOO_SMALL;
    }

    fused_run r;
    r.h = h;
    r.p = conv;
    r.q = pool;
    r.config = fovea_gemm_config_for((fovea_isa)h->isa);
    r.pool_plane = fovea_pool_config_active()->maxpool2d;
    r.panels = (const float *)((const char *)packed + FOVEA_CONV_HEADER_BYTES);
    r.bias = bias != NULL ? bias : r.panels + h->group_floats;
    r.x = x;
    r.y = y;
    r.epilogue = fovea_epilogue_of(activation);
    r.b = plan_bands(h, pool);
    r.workspace = (float *)workspace;
    const double work = (double)conv->batch * (double)conv->output_channels * (double)h->reduction *
                        (double)(conv->output_height * conv->output_width);
    const int t = fovea_threads_for(threadpool, work);
    /* Each image's pooled rows in as many ranges as threads (a range boundary recomputes its shared rows). */
    r.chunks = conv->batch >= (size_t)t ? 1 : min_size((size_t)t, pool->output_height);
    fovea_parallel_run(threadpool, t, run_share, &r);
    return FOVEA_STATUS_OK;
}
