/*
 * Depthwise quantized convolution (fovea_qconv.h): per plane, each output is
 * the int32 sum of (x − x_zero_point) · w over its taps inside the image plus
 * the bias, requantized by fovea_qs8_requantize (MLAS's arithmetic, as the
 * GEMM kernels' epilogue). Planes are shared over the pool; each runs the
 * kernel configs/dwconv-qs8-config.c picks (microkernels/dwconv-qs8/).
 * No packing of activations, no workspace.
 */
#include "fovea_kernels.h"
#include "../configs/config.h"

#include <math.h>
#include <string.h>

static const uint64_t qdw_magic = 0x31777764713866ULL; /* "f8qdww1" */

typedef struct qdw_header {
    uint64_t magic;
    fovea_conv2d_params params;
    uint8_t input_xor;
    int32_t input_zero_point; /* in u8 terms */
    fovea_qs8_requant requant;
    size_t bias_offset, scale_offset, weights_offset, total_bytes;
} qdw_header;

static size_t round_up(size_t n, size_t m) { return (n + m - 1) / m * m; }

static int is_depthwise(const fovea_conv2d_params *p) {
    return fovea_conv2d_check(p) == FOVEA_STATUS_OK && p->groups == p->channels && p->output_channels == p->channels;
}

static size_t layout(const fovea_conv2d_params *p, qdw_header *h) {
    if (p == NULL || !is_depthwise(p)) return 0;
    memset(h, 0, sizeof *h);
    h->params = *p;
    h->bias_offset = round_up(sizeof *h, 64);
    h->scale_offset = round_up(h->bias_offset + p->channels * sizeof(int32_t), 64);
    h->weights_offset = round_up(h->scale_offset + p->channels * sizeof(float), 64);
    h->total_bytes = h->weights_offset + p->channels * p->kernel_height * p->kernel_width;
    return h->total_bytes;
}

size_t fovea_qdwconv2d_packed_size(const fovea_conv2d_params *params) {
    qdw_header h;
    return layout(params, &h);
}

static int scale_ok(float s) { return isfinite(s) && s > 0; }
static int in_type(int32_t v, fovea_qtype t) { return t == FOVEA_QTYPE_U8 ? v >= 0 && v <= 255 : v >= -128 && v <= 127; }

fovea_status fovea_qdwconv2d_pack(const fovea_conv2d_params *params, const fovea_qconv2d_quantization *q,
                                  const int8_t *weights, const int32_t *bias, void *packed, size_t packed_bytes) {
    if (params == NULL || q == NULL || weights == NULL || packed == NULL || q->weight_scales == NULL) {
        return FOVEA_STATUS_NULL_POINTER;
    }
    const fovea_status status = fovea_conv2d_check(params);
    if (status != FOVEA_STATUS_OK) return status;
    qdw_header h;
    if (layout(params, &h) == 0) return FOVEA_STATUS_INVALID_PARAMETER;
    if ((q->input_type != FOVEA_QTYPE_U8 && q->input_type != FOVEA_QTYPE_S8) ||
        (q->output_type != FOVEA_QTYPE_U8 && q->output_type != FOVEA_QTYPE_S8) ||
        (q->weight_scale_count != 1 && q->weight_scale_count != params->channels) || !scale_ok(q->input_scale) ||
        !scale_ok(q->output_scale) || !in_type(q->input_zero_point, q->input_type) ||
        !in_type(q->output_zero_point, q->output_type) || !in_type(q->output_min, q->output_type) ||
        !in_type(q->output_max, q->output_type) || q->output_min > q->output_max) {
        return FOVEA_STATUS_INVALID_PARAMETER;
    }
    for (size_t i = 0; i < q->weight_scale_count; i++) {
        if (!scale_ok(q->weight_scales[i])) return FOVEA_STATUS_INVALID_PARAMETER;
        if (q->weight_zero_points != NULL && q->weight_zero_points[i] != 0) return FOVEA_STATUS_UNSUPPORTED_QUANTIZATION;
    }
    if (packed_bytes < h.total_bytes) return FOVEA_STATUS_BUFFER_TOO_SMALL;
    const int s8_in = q->input_type == FOVEA_QTYPE_S8, s8_out = q->output_type == FOVEA_QTYPE_S8;
    h.magic = qdw_magic;
    h.input_xor = s8_in ? 0x80 : 0;
    h.input_zero_point = q->input_zero_point + (s8_in ? 128 : 0);
    h.requant.zero_point = q->output_zero_point + (s8_out ? 128 : 0);
    h.requant.output_xor = s8_out ? 0x80 : 0;
    h.requant.min_less_zero_point = (float)(q->output_min - q->output_zero_point);
    h.requant.max_less_zero_point = (float)(q->output_max - q->output_zero_point);
    uint8_t *base = (uint8_t *)packed;
    int32_t *bias_out = (int32_t *)(base + h.bias_offset);
    float *scale_out = (float *)(base + h.scale_offset);
    for (size_t c = 0; c < params->channels; c++) {
        bias_out[c] = bias != NULL ? bias[c] : 0;
        scale_out[c] = q->input_scale * q->weight_scales[q->weight_scale_count == 1 ? 0 : c] / q->output_scale;
    }
    memcpy(base + h.weights_offset, weights, params->channels * params->kernel_height * params->kernel_width);
    memcpy(base, &h, sizeof h);
    return FOVEA_STATUS_OK;
}

typedef struct qdw_job {
    const qdw_header *h;
    const fovea_qs8_dwconv_config *config;
    const uint8_t *packed, *x;
    uint8_t *y;
    size_t y_batch_stride;
} qdw_job;

static void qdw_planes(void *context, size_t begin, size_t end) {
    const qdw_job *job = (const qdw_job *)context;
    const qdw_header *h = job->h;
    const fovea_conv2d_params *p = &h->params;
    const int32_t *bias = (const int32_t *)(job->packed + h->bias_offset);
    const float *scale = (const float *)(job->packed + h->scale_offset);
    const int8_t *weights = (const int8_t *)(job->packed + h->weights_offset);
    const size_t taps = p->kernel_height * p->kernel_width;
    fovea_qs8_dwconv_plane plane = {
        .input_height = p->input_height, .input_width = p->input_width, .output_height = p->output_height,
        .output_width = p->output_width, .kernel_height = p->kernel_height, .kernel_width = p->kernel_width,
        .stride_height = p->stride_height, .stride_width = p->stride_width, .dilation_height = p->dilation_height,
        .dilation_width = p->dilation_width, .pad_top = p->pad_top, .pad_left = p->pad_left,
        .input_xor = h->input_xor, .zero_point = h->input_zero_point, .requant = h->requant};
    for (size_t i = begin; i < end; i++) {
        const size_t n = i / p->channels, c = i % p->channels;
        plane.x = job->x + i * p->input_height * p->input_width;
        plane.y = job->y + n * job->y_batch_stride + c * p->output_height * p->output_width;
        plane.weights = weights + c * taps;
        plane.requant.bias = bias + c;
        plane.requant.scale = scale + c;
        job->config->plane(&plane);
    }
}

fovea_status fovea_qdwconv2d_run(const fovea_conv2d_params *params, const void *packed, const void *x, void *y,
                                 size_t y_batch_stride, const fovea_threadpool *threadpool) {
    if (params == NULL || packed == NULL || x == NULL || y == NULL) return FOVEA_STATUS_NULL_POINTER;
    const fovea_status status = fovea_conv2d_check(params);
    if (status != FOVEA_STATUS_OK) return status;
    const qdw_header *h = (const qdw_header *)packed;
    if (h->magic != qdw_magic || memcmp(&h->params, params, sizeof *params) != 0) return FOVEA_STATUS_PACKING_MISMATCH;
    if (params->kernel_height * params->kernel_width > 65536) return FOVEA_STATUS_INVALID_PARAMETER;
    if (y_batch_stride < params->output_channels * params->output_height * params->output_width) {
        return FOVEA_STATUS_INVALID_PARAMETER;
    }
    qdw_job job = {h, fovea_qs8_dwconv_config_active(), (const uint8_t *)packed, (const uint8_t *)x, (uint8_t *)y, y_batch_stride};
    const size_t planes = params->batch * params->channels;
    const double work = 2.0 * (double)planes * (double)(params->output_height * params->output_width) *
                        (double)(params->kernel_height * params->kernel_width);
    fovea_parallel_for(threadpool, fovea_threads_for(threadpool, work), planes, qdw_planes, &job);
    return FOVEA_STATUS_OK;
}
