/*
 * The quantized GEMM convolution (fovea_qconv.h): packs int8 weights for one
 * of the int8 GEMM kernels (configs/gemm-qs8-config.c) with the bias, the
 * zero-point correction and the requantization folded in, and runs it as one
 * GEMM per (image, group, block of output pixels): each block's im2col rows
 * (read in place for 1×1 stride 1) are packed by the config's B packer into
 * the kernel's panels (u8, padding = the input zero point) in the caller's
 * workspace, then every weight panel runs over them.
 */
#include "fovea_kernels.h"
#include "../configs/config.h"
#include "../runtime/amx.h"

#include <math.h>
#include <string.h>

enum {
    max_k = 65536,           /* K · 255 · 128 stays below 2³¹: the int32 sums never wrap */
    block_bytes = 192 << 10, /* B block target: K_padded · pixels bytes, within a 512 KB L2 with A panels */
    max_block_pixels = 1024,
};

static const uint64_t qconv_magic = 0x31766e6f63713866ULL; /* "f8qconv1" */

typedef struct qconv_header {
    uint64_t magic;
    fovea_conv2d_params params;
    size_t kernel_index;
    size_t k;             /* K per group: channels/groups · kernel_height · kernel_width */
    size_t k_padded;      /* K rounded up to the kernel's k_align */
    size_t m;             /* output channels per group */
    size_t m_panels;      /* per group */
    size_t panel_bytes;   /* one A panel: MR · k_padded values */
    size_t block_pixels;  /* output pixels per B block (a multiple of NR) */
    uint8_t input_xor;    /* 0x80 for int8 inputs */
    uint8_t input_zero_point; /* in u8 terms */
    fovea_qs8_requant requant; /* bias and scale pointers are set per call from the offsets below */
    size_t bias_offset;   /* int32[groups · m_panels · MR] */
    size_t scale_offset;  /* float[groups · m_panels · MR] */
    size_t weights_offset;
    size_t total_bytes;
} qconv_header;

static size_t round_up(size_t n, size_t m) { return (n + m - 1) / m * m; }

/* 1×1, stride 1, no padding: the input planes are the B rows, read in place. */
static int is_pointwise(const fovea_conv2d_params *p) {
    return p->kernel_height == 1 && p->kernel_width == 1 && p->stride_height == 1 && p->stride_width == 1 &&
           p->pad_top == 0 && p->pad_left == 0 && p->input_height == p->output_height &&
           p->input_width == p->output_width;
}

static size_t k_of(const fovea_conv2d_params *p) { return p->channels / p->groups * p->kernel_height * p->kernel_width; }

/* The layout of packed weights for `config`, in a header (magic and quantization not set). 0: invalid. */
static size_t layout(const fovea_conv2d_params *p, const fovea_qs8_gemm_config *config, qconv_header *h) {
    if (config == NULL || fovea_conv2d_check(p) != FOVEA_STATUS_OK || k_of(p) > max_k) return 0;
    memset(h, 0, sizeof *h);
    h->params = *p;
    h->kernel_index = fovea_qs8_gemm_config_index(config);
    h->k = k_of(p);
    h->k_padded = round_up(h->k, config->k_align);
    h->m = p->output_channels / p->groups;
    h->m_panels = (h->m + config->mr - 1) / config->mr;
    h->panel_bytes = config->mr * h->k_padded * (config->a_int16 ? 2 : 1);
    size_t pixels = block_bytes / h->k_padded;
    pixels = pixels > max_block_pixels ? max_block_pixels : pixels;
    h->block_pixels = pixels < config->nr ? config->nr : pixels / config->nr * config->nr;
    const size_t rows = p->groups * h->m_panels * config->mr;
    h->bias_offset = round_up(sizeof *h, 64);
    h->scale_offset = round_up(h->bias_offset + rows * sizeof(int32_t), 64);
    h->weights_offset = round_up(h->scale_offset + rows * sizeof(float), 64);
    h->total_bytes = h->weights_offset + p->groups * h->m_panels * h->panel_bytes;
    return h->total_bytes;
}

static const fovea_qs8_gemm_config *config_named(const char *kernel) {
    return kernel == NULL ? fovea_qs8_gemm_config_active() : fovea_qs8_gemm_config_named(kernel);
}

const char *fovea_qconv2d_kernel_at(size_t i) {
    const fovea_qs8_gemm_config *config = fovea_qs8_gemm_config_at(i);
    return config != NULL ? config->name : NULL;
}

int fovea_qconv2d_kernel_supported(const char *kernel) {
    const fovea_qs8_gemm_config *config = fovea_qs8_gemm_config_named(kernel);
    return config != NULL && config->supported();
}

const char *fovea_qconv2d_default_kernel(void) { return fovea_qs8_gemm_config_active()->name; }

size_t fovea_qconv2d_packed_size(const fovea_conv2d_params *params, const char *kernel) {
    qconv_header h;
    return layout(params, config_named(kernel), &h);
}

static int scale_ok(float s) { return isfinite(s) && s > 0; }

static int in_type(int32_t v, fovea_qtype type) {
    return type == FOVEA_QTYPE_U8 ? v >= 0 && v <= 255 : v >= -128 && v <= 127;
}

static fovea_status check_quantization(const fovea_conv2d_params *p, const fovea_qconv2d_quantization *q) {
    if ((q->input_type != FOVEA_QTYPE_U8 && q->input_type != FOVEA_QTYPE_S8) ||
        (q->output_type != FOVEA_QTYPE_U8 && q->output_type != FOVEA_QTYPE_S8)) {
        return FOVEA_STATUS_INVALID_PARAMETER;
    }
    if (q->weight_scales == NULL) return FOVEA_STATUS_NULL_POINTER;
    if (q->weight_scale_count != 1 && q->weight_scale_count != p->output_channels) return FOVEA_STATUS_INVALID_PARAMETER;
    if (!scale_ok(q->input_scale) || !scale_ok(q->output_scale)) return FOVEA_STATUS_INVALID_PARAMETER;
    for (size_t i = 0; i < q->weight_scale_count; i++) {
        if (!scale_ok(q->weight_scales[i])) return FOVEA_STATUS_INVALID_PARAMETER;
    }
    if (!in_type(q->input_zero_point, q->input_type) || !in_type(q->output_zero_point, q->output_type) ||
        !in_type(q->output_min, q->output_type) || !in_type(q->output_max, q->output_type) ||
        q->output_min > q->output_max) {
        return FOVEA_STATUS_INVALID_PARAMETER;
    }
    if (q->weight_zero_points != NULL) {
        for (size_t i = 0; i < q->weight_scale_count; i++) {
            if (q->weight_zero_points[i] != 0) return FOVEA_STATUS_UNSUPPORTED_QUANTIZATION;
        }
    }
    return FOVEA_STATUS_OK;
}

fovea_status fovea_qconv2d_pack(const fovea_conv2d_params *params, const fovea_qconv2d_quantization *quantization,
                                const int8_t *weights, const int32_t *bias, const char *kernel, void *packed,
                                size_t packed_bytes) {
    if (params == NULL || quantization == NULL || weights == NULL || packed == NULL) return FOVEA_STATUS_NULL_POINTER;
    fovea_status status = fovea_conv2d_check(params);
    if (status != FOVEA_STATUS_OK) return status;
    if (k_of(params) > max_k) return FOVEA_STATUS_INVALID_PARAMETER;
    const fovea_qs8_gemm_config *config = config_named(kernel);
    if (config == NULL) return FOVEA_STATUS_UNKNOWN_ISA;
    if (!config->supported()) return FOVEA_STATUS_UNSUPPORTED_ISA;
    status = check_quantization(params, quantization);
    if (status != FOVEA_STATUS_OK) return status;
    qconv_header h;
    if (layout(params, config, &h) == 0) return FOVEA_STATUS_INVALID_PARAMETER;
    if (packed_bytes < h.total_bytes) return FOVEA_STATUS_BUFFER_TOO_SMALL;

    const fovea_qconv2d_quantization *q = quantization;
    h.magic = qconv_magic;
    h.input_xor = q->input_type == FOVEA_QTYPE_S8 ? 0x80 : 0;
    h.input_zero_point = (uint8_t)(q->input_zero_point + (q->input_type == FOVEA_QTYPE_S8 ? 128 : 0));
    const int32_t out_shift = q->output_type == FOVEA_QTYPE_S8 ? 128 : 0;
    h.requant.zero_point = q->output_zero_point + out_shift;
    h.requant.output_xor = q->output_type == FOVEA_QTYPE_S8 ? 0x80 : 0;
    /* MLAS clamps in float to [min − zp, max − zp] before rounding; the same numbers in u8 terms. */
    h.requant.min_less_zero_point = (float)(q->output_min - q->output_zero_point);
    h.requant.max_less_zero_point = (float)(q->output_max - q->output_zero_point);

    uint8_t *base = (uint8_t *)packed;
    memset(base, 0, h.total_bytes); /* padding rows: bias 0, scale 0, weights 0 */
    int32_t *bias_out = (int32_t *)(base + h.bias_offset);
    float *scale_out = (float *)(base + h.scale_offset);
    const size_t MR = config->mr, akr = config->a_kr, rows_per_group = h.m_panels * MR;
    for (size_t g = 0; g < params->groups; g++) {
        for (size_t m = 0; m < h.m; m++) {
            const size_t channel = g * h.m + m;
            const int8_t *w = weights + channel * h.k;
            int64_t sum = 0;
            for (size_t k = 0; k < h.k; k++) sum += w[k];
            /* bias − zp · Σw, wrapping in int32 as MLAS's sums do (never for K <= 65536 and |bias| < 2³⁰); a kernel
             * on signed activations (x − 128) sums 128 · Σw less, so its bias holds bias − (zp − 128) · Σw. */
            const uint32_t b = bias != NULL ? (uint32_t)bias[channel] : 0;
            const uint32_t zp = (uint32_t)h.input_zero_point - (config->b_signed ? 128u : 0u);
            bias_out[g * rows_per_group + m] = (int32_t)(b - zp * (uint32_t)(int32_t)sum);
            const float w_scale = q->weight_scales[q->weight_scale_count == 1 ? 0 : channel];
            scale_out[g * rows_per_group + m] = q->input_scale * w_scale / q->output_scale; /* onnxruntime's order */
            uint8_t *panel = base + h.weights_offset + (g * h.m_panels + m / MR) * h.panel_bytes;
            const size_t r = m % MR;
            for (size_t k = 0; k < h.k; k++) {
                const size_t i = k / akr * MR * akr + r * akr + k % akr;
                if (config->a_int16) {
                    ((int16_t *)panel)[i] = w[k];
                } else {
                    ((int8_t *)panel)[i] = w[k];
                }
            }
        }
    }
    memcpy(base, &h, sizeof h);
    return FOVEA_STATUS_OK;
}

static const qconv_header *header_of(const void *packed) {
    if (packed == NULL) return NULL;
    const qconv_header *h = (const qconv_header *)packed;
    return h->magic == qconv_magic && fovea_qs8_gemm_config_at(h->kernel_index) != NULL ? h : NULL;
}

const char *fovea_qconv2d_kernel_name(const void *packed) {
    const qconv_header *h = header_of(packed);
    return h != NULL ? fovea_qs8_gemm_config_at(h->kernel_index)->name : NULL;
}

/* A thread's B panels, then (k×k convolutions) the im2col rows they are packed from. */
static size_t panels_bytes(const qconv_header *h) { return round_up(h->k_padded * h->block_pixels, 64); }
static size_t thread_workspace(const qconv_header *h) {
    return panels_bytes(h) + (is_pointwise(&h->params) ? 0 : round_up(h->k * h->block_pixels, 64));
}

size_t fovea_qconv2d_workspace_size(const void *packed, size_t threads) {
    const qconv_header *h = header_of(packed);
    if (h == NULL) return 0;
    return (threads == 0 ? 1 : threads) * thread_workspace(h) + 64;
}

/* ---- running ---- */

typedef struct qconv_job {
    const qconv_header *h;
    const fovea_qs8_gemm_config *config;
    const uint8_t *packed;
    const uint8_t *x;
    uint8_t *y;
    size_t y_batch_stride;
    uint8_t *workspace; /* 64-aligned */
    size_t blocks;      /* pixel blocks per image */
    size_t units;       /* batch · groups · blocks */
} qconv_job;

/*
 * im2col of pixels [p0, p0 + count) of one image's group as K rows of count
 * bytes (row k = channel c, tap (kh, kw)), row segment by row segment of the
 * output: taps outside the image read the input zero point (in the input's
 * own type: the B packer flips int8 afterwards).
 */
static void im2col_rows(const qconv_header *h, const uint8_t *x, size_t p0, size_t count, uint8_t *rows) {
    const fovea_conv2d_params *p = &h->params;
    const size_t taps = p->kernel_height * p->kernel_width, plane = p->input_height * p->input_width;
    const uint8_t zero = (uint8_t)(h->input_zero_point ^ h->input_xor);
    const long H = (long)p->input_height, W = (long)p->input_width;
    for (size_t k = 0; k < h->k; k++) {
        const size_t c = k / taps, tap = k % taps;
        const long dh = (long)(tap / p->kernel_width * p->dilation_height) - (long)p->pad_top;
        const long dw = (long)(tap % p->kernel_width * p->dilation_width) - (long)p->pad_left;
        const uint8_t *xc = x + c * plane;
        uint8_t *out = rows + k * count;
        size_t n = 0;
        while (n < count) {
            const size_t pixel = p0 + n, oh = pixel / p->output_width, ow0 = pixel % p->output_width;
            const size_t run = p->output_width - ow0 < count - n ? p->output_width - ow0 : count - n;
            const long ih = (long)(oh * p->stride_height) + dh;
            if (ih < 0 || ih >= H) {
                memset(out + n, zero, run);
            } else {
                const uint8_t *xrow = xc + (size_t)ih * p->input_width;
                if (p->stride_width == 1) { /* padding, one copy, padding */
                    const long first = (long)ow0 + dw; /* input column of the segment's first output */
                    long begin = first < 0 ? -first : 0;
                    begin = begin > (long)run ? (long)run : begin;
                    long end = W - first;
                    end = end < 0 ? 0 : end > (long)run ? (long)run : end;
                    if (end < begin) end = begin;
                    memset(out + n, zero, (size_t)begin);
                    if (end > begin) memcpy(out + n + begin, xrow + first + begin, (size_t)(end - begin));
                    memset(out + n + end, zero, run - (size_t)end);
                } else {
                    for (size_t i = 0; i < run; i++) {
                        const long iw = (long)((ow0 + i) * p->stride_width) + dw;
                        out[n + i] = iw >= 0 && iw < W ? xrow[iw] : zero;
                    }
                }
            }
            n += run;
        }
    }
}

static void qconv_share(void *context, size_t share, size_t shares) {
    const qconv_job *job = (const qconv_job *)context;
    const qconv_header *h = job->h;
    const fovea_qs8_gemm_config *config = job->config;
    const fovea_conv2d_params *p = &h->params;
    const size_t begin = job->units * share / shares, end = job->units * (share + 1) / shares;
    uint8_t *block = job->workspace + share * thread_workspace(h);
    uint8_t *rows = block + panels_bytes(h);
    const int pointwise = is_pointwise(p);
    const size_t plane = p->input_height * p->input_width;
    const size_t pixels = p->output_height * p->output_width, MR = config->mr, NR = config->nr;
    const size_t cin = p->channels / p->groups, rows_per_group = h->m_panels * MR;
    const int32_t *bias = (const int32_t *)(job->packed + h->bias_offset);
    /* Bytes into the kernel's B: u8 (int8 inputs flipped), then x − 128 for a kernel on signed activations. */
    const uint8_t flip = (uint8_t)(h->input_xor ^ (config->b_signed ? 0x80 : 0));
    const float *scale = (const float *)(job->packed + h->scale_offset);
    for (size_t u = begin; u < end; u++) {
        const size_t b = u % job->blocks, g = u / job->blocks % p->groups, n = u / job->blocks / p->groups;
        const size_t p0 = b * h->block_pixels;
        const size_t count = pixels - p0 < h->block_pixels ? pixels - p0 : h->block_pixels;
        const uint8_t *x = job->x + (n * p->channels + g * cin) * p->input_height * p->input_width;
        if (pointwise) {
            config->pack_b(h->k, h->k_padded, count, x + p0, plane, flip, NR, config->b_kr, block);
        } else {
            im2col_rows(h, x, p0, count, rows);
            config->pack_b(h->k, h->k_padded, count, rows, count, flip, NR, config->b_kr, block);
        }
        uint8_t *y = job->y + n * job->y_batch_stride + g * h->m * pixels + p0;
        for (size_t mp = 0; mp < h->m_panels; mp++) {
            fovea_qs8_requant rq = h->requant;
            rq.bias = bias + g * rows_per_group + mp * MR;
            rq.scale = scale + g * rows_per_group + mp * MR;
            const size_t mr = h->m - mp * MR < MR ? h->m - mp * MR : MR;
            const uint8_t *a = job->packed + h->weights_offset + (g * h->m_panels + mp) * h->panel_bytes;
            for (size_t j = 0; j * NR < count; j++) {
                const size_t nr = count - j * NR < NR ? count - j * NR : NR;
                config->ukernel(mr, nr, h->k_padded, a, block + j * h->k_padded * NR, &rq,
                                y + mp * MR * pixels + j * NR, pixels, config);
            }
        }
    }
    /* AMX: give the tile state back so context switches stop saving it (runtime/amx.h). */
    if (config->amx_tiles) fovea_amx_release();
}

fovea_status fovea_qconv2d_run(const fovea_conv2d_params *params, const void *packed, const void *x, void *y,
                               size_t y_batch_stride, void *workspace, size_t workspace_bytes,
                               const fovea_threadpool *threadpool) {
    if (params == NULL || packed == NULL || x == NULL || y == NULL) return FOVEA_STATUS_NULL_POINTER;
    fovea_status status = fovea_conv2d_check(params);
    if (status != FOVEA_STATUS_OK) return status;
    const qconv_header *h = header_of(packed);
    if (h == NULL || memcmp(&h->params, params, sizeof *params) != 0) return FOVEA_STATUS_PACKING_MISMATCH;
    const fovea_qs8_gemm_config *config = fovea_qs8_gemm_config_at(h->kernel_index);
    if (!config->supported()) return FOVEA_STATUS_UNSUPPORTED_ISA;
    const size_t pixels = params->output_height * params->output_width;
    if (y_batch_stride < params->output_channels * pixels) return FOVEA_STATUS_INVALID_PARAMETER;
    size_t last = 0;
    if (__builtin_mul_overflow(params->batch - 1, y_batch_stride, &last)) return FOVEA_STATUS_TOO_LARGE;
    const double work = 2.0 * (double)params->batch * (double)params->output_channels * (double)pixels * (double)h->k;
    const int threads = fovea_threads_for(threadpool, work);
    if (workspace == NULL) return FOVEA_STATUS_NULL_POINTER;
    uint8_t *aligned = (uint8_t *)round_up((size_t)workspace, 64);
    const size_t need = (size_t)threads * thread_workspace(h);
    if (workspace_bytes < need + (size_t)(aligned - (uint8_t *)workspace)) return FOVEA_STATUS_BUFFER_TOO_SMALL;
    qconv_job job = {h, config, (const uint8_t *)packed, (const uint8_t *)x, (uint8_t *)y, y_batch_stride, aligned,
                     (pixels + h->block_pixels - 1) / h->block_pixels, 0};
    job.units = params->batch * params->groups * job.blocks;
    fovea_parallel_run(threadpool, threads, qconv_share, &job);
    return FOVEA_STATUS_OK;
}
