/*
 * Pooling on 8-bit quantized tensors (fovea_qpool.h), in portable loops over
 * planes shared out on the caller's pool. int8 bytes are compared after
 * flipping their sign bit (an order-preserving map to uint8), so one loop
 * serves both types.
 */
#include "fovea_kernels.h"
#include "../runtime/runtime.h"

#include <math.h>
#include <string.h>

typedef struct maxpool_job {
    const fovea_pool2d_params *p;
    uint8_t flip;
    const uint8_t *x;
    uint8_t *y;
} maxpool_job;

static void maxpool_planes(void *context, size_t begin, size_t end) {
    const maxpool_job *job = (const maxpool_job *)context;
    /* The parameters in locals: the stores to y (bytes, which may alias anything)
     * would otherwise make the compiler reload every field of *p after each one. */
    const fovea_pool2d_params p = *job->p;
    const uint8_t flip = job->flip;
    const long H = (long)p.input_height, W = (long)p.input_width;
    const long OH = (long)p.output_height, OW = (long)p.output_width;
    const long KH = (long)p.kernel_height, KW = (long)p.kernel_width;
    const long SH = (long)p.stride_height, SW = (long)p.stride_width;
    const long DH = (long)p.dilation_height, DW = (long)p.dilation_width;
    const long PT = (long)p.pad_top, PL = (long)p.pad_left;
    /* Rows up to this wide take the column maxima first (a vectorized pass over
     * each window row), then the windows' maxima along that one row; wider rows
     * test each tap. */
    enum { widest_row = 4096 };
    uint8_t column[widest_row];
    for (size_t plane = begin; plane < end; plane++) {
        const uint8_t *x = job->x + plane * (size_t)(H * W);
        uint8_t *y = job->y + plane * (size_t)(OH * OW);
        for (long oh = 0; oh < OH; oh++) {
            /* The window rows inside the picture: kh in [kh0, kh1), found once per output row. */
            const long top = oh * SH - PT;
            long kh0 = 0, kh1 = KH;
            while (kh0 < KH && top + kh0 * DH < 0) kh0++;
            while (kh1 > kh0 && top + (kh1 - 1) * DH >= H) kh1--;
            const int by_column = W <= widest_row;
            if (by_column) {
                memset(column, 0, (size_t)W); /* the flipped type's minimum */
                for (long kh = kh0; kh < kh1; kh++) {
                    const uint8_t *row = x + (top + kh * DH) * W;
                    for (long w = 0; w < W; w++) {
                        const uint8_t v = row[w] ^ flip;
                        column[w] = v > column[w] ? v : column[w];
                    }
                }
            }
            for (long ow = 0; ow < OW; ow++) {
                const long left = ow * SW - PL;
                long kw0 = 0, kw1 = KW;
                while (kw0 < KW && left + kw0 * DW < 0) kw0++;
                while (kw1 > kw0 && left + (kw1 - 1) * DW >= W) kw1--;
                uint8_t best = 0; /* the type's minimum after the flip: an all-padding window keeps it */
                if (by_column) {
                    for (long kw = kw0; kw < kw1; kw++) {
                        const uint8_t v = column[left + kw * DW];
                        best = v > best ? v : best;
                    }
                } else {
                    for (long kh = kh0; kh < kh1; kh++) {
                        const uint8_t *row = x + (top + kh * DH) * W;
                        for (long kw = kw0; kw < kw1; kw++) {
                            const uint8_t v = row[left + kw * DW] ^ flip;
                            best = v > best ? v : best;
                        }
                    }
                }
                y[oh * OW + ow] = best ^ flip;
            }
        }
    }
}

static int fits(size_t a, size_t b, size_t c, size_t d) {
    size_t n = 0;
    return !__builtin_mul_overflow(a, b, &n) && !__builtin_mul_overflow(n, c, &n) && !__builtin_mul_overflow(n, d, &n);
}

fovea_status fovea_maxpool2d_q8(const fovea_pool2d_params *params, fovea_qtype type, const void *x, void *y,
                                const fovea_threadpool *threadpool) {
    if (params == NULL || x == NULL || y == NULL) return FOVEA_STATUS_NULL_POINTER;
    const fovea_pool2d_params *p = params;
    const size_t extents[] = {p->batch, p->channels, p->input_height, p->input_width, p->output_height,
                              p->output_width, p->kernel_height, p->kernel_width, p->stride_height, p->stride_width,
                              p->dilation_height, p->dilation_width, p->pad_top, p->pad_left};
    for (size_t i = 0; i < sizeof extents / sizeof extents[0]; i++) {
        if (extents[i] == 0 && i < 12) return FOVEA_STATUS_INVALID_PARAMETER;
        if (extents[i] > FOVEA_KERNELS_MAX_EXTENT) return FOVEA_STATUS_INVALID_PARAMETER;
    }
    if (type != FOVEA_QTYPE_U8 && type != FOVEA_QTYPE_S8) return FOVEA_STATUS_INVALID_PARAMETER;
    if (!fits(p->batch, p->channels, p->input_height, p->input_width) ||
        !fits(p->batch, p->channels, p->output_height, p->output_width)) {
        return FOVEA_STATUS_TOO_LARGE;
    }
    maxpool_job job = {p, type == FOVEA_QTYPE_S8 ? 0x80 : 0, (const uint8_t *)x, (uint8_t *)y};
    const size_t planes = p->batch * p->channels;
    const double work = (double)planes * (double)(p->output_height * p->output_width) *
                        (double)(p->kernel_height * p->kernel_width);
    fovea_parallel_for(threadpool, fovea_threads_for(threadpool, work), planes, maxpool_planes, &job);
    return FOVEA_STATUS_OK;
}

typedef struct gavg_job {
    size_t plane_size;
    uint8_t flip;
    int32_t bias;       /* −x_zero_point · S, in u8 terms */
    float scale;
    int32_t zero_point; /* in u8 terms */
    const uint8_t *x;
    uint8_t *y;
} gavg_job;

static void gavg_planes(void *context, size_t begin, size_t end) {
    const gavg_job *job = (const gavg_job *)context;
    for (size_t plane = begin; plane < end; plane++) {
        const uint8_t *x = job->x + plane * job->plane_size;
        int32_t sum = 0; /* S < 2^24 and bytes <= 255: fits */
        for (size_t i = 0; i < job->plane_size; i++) sum += x[i] ^ job->flip;
        float v = (float)(sum + job->bias) * job->scale;
        const float lo = (float)(0 - job->zero_point), hi = (float)(255 - job->zero_point);
        v = v > lo ? v : lo;
        v = v < hi ? v : hi;
        job->y[plane] = (uint8_t)(((int32_t)nearbyintf(v) + job->zero_point) ^ job->flip);
    }
}

fovea_status fovea_global_avgpool_q8(size_t planes, size_t plane_size, fovea_qtype type, float x_scale,
                                     int32_t x_zero_point, float y_scale, int32_t y_zero_point, const void *x,
                                     void *y, const fovea_threadpool *threadpool) {
    if (x == NULL || y == NULL) return FOVEA_STATUS_NULL_POINTER;
    if (planes == 0 || plane_size == 0 || plane_size >= (1u << 24)) return FOVEA_STATUS_INVALID_PARAMETER;
    if (type != FOVEA_QTYPE_U8 && type != FOVEA_QTYPE_S8) return FOVEA_STATUS_INVALID_PARAMETER;
    const int s8 = type == FOVEA_QTYPE_S8;
    const int32_t lo = s8 ? -128 : 0, hi = s8 ? 127 : 255;
    if (x_zero_point < lo || x_zero_point > hi || y_zero_point < lo || y_zero_point > hi) {
        return FOVEA_STATUS_INVALID_PARAMETER;
    }
    if (!(isfinite(x_scale) && x_scale > 0 && isfinite(y_scale) && y_scale > 0)) return FOVEA_STATUS_INVALID_PARAMETER;
    const float scale = x_scale / (y_scale * (float)plane_size); /* MLAS's expression */
    if (!(scale >= 0x1.0p-32f && scale < 256.0f)) return FOVEA_STATUS_INVALID_PARAMETER;
    size_t bytes = 0;
    if (__builtin_mul_overflow(planes, plane_size, &bytes)) return FOVEA_STATUS_TOO_LARGE;
    gavg_job job = {plane_size, s8 ? 0x80 : 0, -(x_zero_point + (s8 ? 128 : 0)) * (int32_t)plane_size, scale,
                    y_zero_point + (s8 ? 128 : 0), (const uint8_t *)x, (uint8_t *)y};
    fovea_parallel_for(threadpool, fovea_threads_for(threadpool, (double)bytes), planes, gavg_planes, &job);
    return FOVEA_STATUS_OK;
}
