/*
 * im2col packed straight into GEMM column panels: no whole im2col matrix is
 * ever built. A panel's nr output pixels lie on one or a few output rows;
 * each row segment becomes one contiguous (stride 1) or strided read of an
 * input row per reduction index, with zeros where the taps fall in padding.
 */
#include "conv2d.h"

#include <string.h>

/* A run of a panel's columns on one output row of one image. */
typedef struct segment {
    size_t column;   /* first column within the panel */
    size_t count;
    size_t image;
    size_t out_row;
    size_t out_col;  /* first output column */
} segment;

/*
 * Splits panel columns [n0, n0 + count) of the merged (image, pixel) columns
 * into output-row segments; returns how many.
 */
static size_t panel_segments(const fovea_conv2d_params *p, size_t n0, size_t count, segment *out) {
    const size_t image_columns = p->output_height * p->output_width;
    size_t made = 0, column = 0;
    while (column < count) {
        const size_t pixel = (n0 + column) % image_columns, image = (n0 + column) / image_columns;
        const size_t oh = pixel / p->output_width, ow = pixel % p->output_width;
        size_t run = p->output_width - ow;
        if (run > count - column) run = count - column;
        out[made++] = (segment){column, run, image, oh, ow};
        column += run;
    }
    return made;
}

/*
 * Where one segment reads for one tap (kh, kw), the same for every input
 * channel: columns [0, first) and [end, count) fall in padding, columns
 * [first, end) read the row at `offset` in each channel plane, `stride` apart.
 */
typedef struct tap_geometry {
    int inside;     /* the input row exists (else the whole segment is padding) */
    size_t offset;  /* of the first read value in a channel plane */
    size_t first;
    size_t end;
} tap_geometry;

/*
 * Channels ahead whose input row a packing loop prefetches. Consecutive
 * channels' rows lie a plane apart (12-50 KB), past what the hardware
 * prefetcher follows, so each row was a demand miss to L3: the stride-2
 * gathers of ResNet-50's downsampling layers stalled on their loads.
 */
enum { prefetch_channels = 8 };

/* Prefetches the cache lines of floats [0, count) from src into L1. */
static inline void prefetch_floats(const float *src, size_t count) {
    for (size_t i = 0; i < count; i += 16) __builtin_prefetch(src + i);
    if (count > 0) __builtin_prefetch(src + count - 1);
}

static tap_geometry segment_tap(const fovea_conv2d_params *p, size_t kh, size_t kw, const segment *s) {
    tap_geometry t = {0, 0, 0, 0};
    const int64_t ih = (int64_t)(s->out_row * p->stride_height + kh * p->dilation_height) - (int64_t)p->pad_top;
    if (ih < 0 || ih >= (int64_t)p->input_height) return t;
    const int64_t width = (int64_t)p->input_width, stride = (int64_t)p->stride_width;
    const int64_t iw0 = (int64_t)(s->out_col * p->stride_width + kw * p->dilation_width) - (int64_t)p->pad_left;
    /* Columns q with 0 <= iw0 + q*stride < width are inside the row. */
    int64_t first = iw0 >= 0 ? 0 : (-iw0 + stride - 1) / stride;
    int64_t end = iw0 >= width ? 0 : (width - iw0 + stride - 1) / stride;
    if (first > (int64_t)s->count) first = (int64_t)s->count;
    if (end > (int64_t)s->count) end = (int64_t)s->count;
    if (end < first) end = first;
    t.inside = 1;
    t.first = (size_t)first;
    t.end = (size_t)end;
    t.offset = (size_t)(ih * width + iw0 + first * stride);
    return t;
}

void fovea_im2col_pack(const fovea_conv2d_params *p, const float *x, size_t image_stride, size_t n0, size_t nc,
                       size_t nr, const fovea_conv_config *conv, float *packed) {
    const fovea_gather_stride2_fn gather_stride2 = conv->gather_stride2;
    const fovea_gather_stride2_taps3_fn gather_taps3 = conv->gather_stride2_taps3;
    /* 3×3 stride 2 with one column of left padding: each input row read once for its three kw taps. */
    const int three_taps = fovea_conv_is_3x3_stride2(p) && p->pad_left == 1;
    const size_t group_channels = p->channels / p->groups;
    const size_t plane_size = p->input_height * p->input_width;
    const size_t taps = p->kernel_height * p->kernel_width;
    const size_t k_total = group_channels * taps;
    const size_t stride = p->stride_width;
    segment segments[64];
    for (size_t j0 = 0; j0 < nc; j0 += nr) {
        const size_t columns = nc - j0 < nr ? nc - j0 : nr;
        /* At most one segment per column (nr ≤ 64): 1×1 outputs over a batch. */
        const size_t count = panel_segments(p, n0 + j0, columns, segments);
        float *panel = packed + (j0 / nr) * k_total * nr;
        if (columns < nr)
            for (size_t k = 0; k < k_total; k++) memset(panel + k * nr + columns, 0, (nr - columns) * sizeof(float));
        /*
         * Segment and tap outside, channels inside: the bounds of a tap are the
         * same in every channel plane, so a stride-2 1×1 shortcut (C = 256-1024)
         * computes them once per chunk of channels instead of once per channel.
         * Chunks keep the panel rows being written within L1 (16 KB): one
         * pass over a whole deep panel per tap (K = 4608 for 3×3 on 512
         * channels: 590 KB) was 5× slower than packing channel by channel.
         */
        size_t chunk = 16384 / (taps * nr * sizeof(float));
        if (chunk < 1) chunk = 1;
        for (size_t c0 = 0; c0 < group_channels; c0 += chunk) {
            const size_t c_end = group_channels - c0 < chunk ? group_channels : c0 + chunk;
            for (size_t si = 0; si < count; si++) {
                const segment *sg = &segments[si];
                const float *image = x + sg->image * image_stride + c0 * plane_size;
                if (three_taps) {
                    const size_t dst_step = taps * nr;
                    for (size_t kh = 0; kh < 3; kh++) {
                        float *dst = panel + c0 * dst_step + kh * 3 * nr + sg->column;
                        const int64_t ih = (int64_t)(sg->out_row * 2 + kh) - (int64_t)p->pad_top;
                        if (ih < 0 || ih >= (int64_t)p->input_height) {
                            for (size_t c = c0; c < c_end; c++, dst += dst_step) {
                                for (size_t kw = 0; kw < 3; kw++) memset(dst + kw * nr, 0, sg->count * sizeof(float));
                            }
                            continue;
                        }
                        const float *src = image + (size_t)ih * p->input_width;
                        /* The segment's span of the row: columns 2·out_col − 1 ... 2·(out_col + count) − 1. */
                        const size_t span_first = sg->out_col > 0 ? 2 * sg->out_col - 1 : 0;
                        size_t span_end = 2 * (sg->out_col + sg->count);
                        if (span_end > p->input_width) span_end = p->input_width;
                        const size_t span = span_end > span_first ? span_end - span_first : 0;
                        for (size_t c = c0; c < c_end; c++, dst += dst_step, src += plane_size) {
                            if (c + prefetch_channels < group_channels)
                                prefetch_floats(src + prefetch_channels * plane_size + span_first, span);
                            gather_taps3(dst, dst + nr, dst + 2 * nr, src, p->input_width, 2 * sg->out_col, sg->count);
                        }
                    }
                    continue;
                }
                for (size_t kh = 0; kh < p->kernel_height; kh++) {
                    for (size_t kw = 0; kw < p->kernel_width; kw++) {
                        const tap_geometry t = segment_tap(p, kh, kw, sg);
                        const size_t dst_step = taps * nr;
                        float *dst = panel + c0 * dst_step + (kh * p->kernel_width + kw) * nr + sg->column;
                        if (!t.inside) {
                            for (size_t c = c0; c < c_end; c++, dst += dst_step) memset(dst, 0, sg->count * sizeof(float));
                            continue;
                        }
                        const size_t n = t.end - t.first;
                        const float *src = image + t.offset;
                        for (size_t c = c0; c < c_end; c++, dst += dst_step, src += plane_size) {
                            if (c + prefetch_channels < group_channels && n > 0)
                                prefetch_floats(src + prefetch_channels * plane_size, (n - 1) * stride + 1);
                            for (size_t q = 0; q < t.first; q++) dst[q] = 0.0f;
                            if (stride == 1) {
                                if (n > 0) memcpy(dst + t.first, src, n * sizeof(float));
                            } else if (stride == 2) {
                                if (n > 0) gather_stride2(dst + t.first, src, n);
                            } else {
                                for (size_t q = 0; q < n; q++) dst[t.first + q] = src[q * stride];
                            }
                            for (size_t q = t.end; q < sg->count; q++) dst[q] = 0.0f;
                        }
                    }
                }
            }
        }
    }
}
