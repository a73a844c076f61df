/*
 * Depthwise convolution of one plane with NEON for any kernel size, stride
 * and dilation: 4 output columns at a time, one vector of taps per (kh, kw):
 * a plain load (stride 1) or LD2's even elements (stride 2) where the floats
 * read lie inside the row, else lane loads with zeros outside (load-neon.h).
 * Rows wholly in the padding are skipped. Taps are added column by column,
 * row by row within a column, as the AVX2 variant does.
 */
#include "load-neon.h"

#if FOVEA_HAVE_NEON_VARIANTS

static inline float32x4_t load_taps(const float *row, int64_t start, int64_t stride, int64_t width, int64_t n,
                                    int inside) {
    if (inside && n == 4) {
        if (stride == 1) return vld1q_f32(row + start);
        if (stride == 2 && start + 7 < width) return vld2q_f32(row + start).val[0];
    }
    return fovea_dw_load_lanes_neon(row, start, stride, width, n);
}

void fovea_f32_dwconv_kxk__neon(const fovea_conv2d_params *p, const float *x, const float *w, float bias, float *y,
                                size_t oh_begin, size_t oh_end, const fovea_epilogue *e) {
    const int64_t height = (int64_t)p->input_height, width = (int64_t)p->input_width;
    const int64_t out_width = (int64_t)p->output_width;
    const int64_t kh_count = (int64_t)p->kernel_height, kw_count = (int64_t)p->kernel_width;
    const int64_t sh = (int64_t)p->stride_height, sw = (int64_t)p->stride_width;
    const int64_t dh = (int64_t)p->dilation_height, dw = (int64_t)p->dilation_width;
    const int64_t pt = (int64_t)p->pad_top, pl = (int64_t)p->pad_left;
    const fovea_epilogue epi = *e; /* a local copy: stores to y cannot change it */

    for (int64_t ow0 = 0; ow0 < out_width; ow0 += 4) {
        const int64_t n = out_width - ow0 < 4 ? out_width - ow0 : 4;
        const int64_t c = ow0 * sw - pl;
        const int inside = c >= 0 && c + (n - 1) * sw + (kw_count - 1) * dw < width;
        for (int64_t oh = (int64_t)oh_begin; oh < (int64_t)oh_end; oh++) {
            const fovea_dw_taps rows = fovea_dw_axis_taps(oh, height, kh_count, sh, dh, pt);
            const int64_t ih0 = oh * sh - pt;
            float32x4_t acc = vdupq_n_f32(bias);
            for (int64_t kw = 0; kw < kw_count; kw++) {
                const int64_t start = c + kw * dw;
                const fovea_dw_lanes lanes = fovea_dw_valid_lanes(start, sw, width, n);
                if (lanes.hi <= lanes.lo) continue;
                for (int64_t kh = rows.first; kh < rows.end; kh++) {
                    const float32x4_t v = load_taps(x + (ih0 + kh * dh) * width, start, sw, width, n, inside);
                    acc = vfmaq_n_f32(acc, v, w[kh * kw_count + kw]);
                }
            }
            fovea_dw_store_neon(y + oh * out_width + ow0, fovea_epilogue_neon(acc, &epi), n);
        }
    }
}

#endif
