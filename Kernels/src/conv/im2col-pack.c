/*
 * im2col packed straight into GEMM column panels: no whole im2col matrix is
 * ever built. A panel's nr output pixels lie on one or a few output rows;
 * each row segment becomes one contiguous (stride 1) or strided read of an
 * input row per reduction index, with zeros where the taps fall in padding.
 */
#include "conv.h"

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

void fovea_gather_stride2__scalar(float *dst, const float *src, size_t count) {
    for (size_t q = 0; q < count; q++) dst[q] = src[2 * q];
}

/* One segment's values for input channel plane `plane` and tap (kh, kw). */
static void pack_segment(const fovea_conv2d_params *p, const float *plane, size_t kh, size_t kw, const segment *s,
                         fovea_gather_stride2_fn gather_stride2, float *dst) {
    const int64_t ih = (int64_t)(s->out_row * p->stride_height + kh * p->dilation_height) - (int64_t)p->pad_top;
    if (ih < 0 || ih >= (int64_t)p->input_height) {
        memset(dst, 0, s->count * sizeof(float));
        return;
    }
    const float *row = plane + (size_t)ih * p->input_width;
    const int64_t width = (int64_t)p->input_width, stride = (int64_t)p->stride_width;
    const int64_t iw0 = (int64_t)(s->out_col * p->stride_width + kw * p->dilation_width) - (int64_t)p->pad_left;
    /* Columns q with 0 <= iw0 + q*stride < width are inside the row. */
    int64_t first = iw0 >= 0 ? 0 : (-iw0 + stride - 1) / stride;
    int64_t end = iw0 >= width ? 0 : (width - iw0 + stride - 1) / stride;
    if (first > (int64_t)s->count) first = (int64_t)s->count;
    if (end > (int64_t)s->count) end = (int64_t)s->count;
    if (end < first) end = first;
    for (int64_t q = 0; q < first; q++) dst[q] = 0.0f;
    if (stride == 1) {
        if (end > first) memcpy(dst + first, row + iw0 + first, (size_t)(end - first) * sizeof(float));
    } else if (stride == 2) {
        if (end > first) gather_stride2(dst + first, row + iw0 + 2 * first, (size_t)(end - first));
    } else {
        for (int64_t q = first; q < end; q++) dst[q] = row[iw0 + q * stride];
    }
    for (int64_t q = end; q < (int64_t)s->count; q++) dst[q] = 0.0f;
}

void fovea_im2col_pack(const fovea_conv2d_params *p, const float *x, size_t image_stride, size_t n0, size_t nc,
                       size_t nr, fovea_isa isa, float *packed) {
#if FOVEA_HAVE_X86_VARIANTS
    const fovea_gather_stride2_fn gather_stride2 =
        isa == FOVEA_ISA_AVX512 ? fovea_gather_stride2__avx512 : fovea_gather_stride2__scalar;
#else
    (void)isa;
    const fovea_gather_stride2_fn gather_stride2 = fovea_gather_stride2__scalar;
#endif
    const size_t group_channels = p->channels / p->groups;
    const size_t plane_size = p->input_height * p->input_width;
    const size_t taps = p->kernel_height * p->kernel_width;
    const size_t k_total = group_channels * taps;
    segment segments[64];
    for (size_t j0 = 0; j0 < nc; j0 += nr) {
        const size_t columns = nc - j0 < nr ? nc - j0 : nr;
        /* At most one segment per column (nr ≤ 64): 1×1 outputs over a batch. */
        const size_t count = panel_segments(p, n0 + j0, columns, segments);
        float *panel = packed + (j0 / nr) * k_total * nr;
        for (size_t c = 0; c < group_channels; c++) {
            const float *plane = x + c * plane_size;
            for (size_t kh = 0; kh < p->kernel_height; kh++) {
                for (size_t kw = 0; kw < p->kernel_width; kw++) {
                    float *dst = panel + ((c * p->kernel_height + kh) * p->kernel_width + kw) * nr;
                    for (size_t s = 0; s < count; s++)
                        pack_segment(p, plane + segments[s].image * image_stride, kh, kw, &segments[s], gather_stride2,
                                     dst + segments[s].column);
                    if (columns < nr) memset(dst + columns, 0, (nr - columns) * sizeof(float));
                }
            }
        }
    }
}
