/*
 * The body of the NEON max and average pooling variants (f32-maxpool2d-neon.c,
 * f32-avgpool2d-neon.c): 4 output columns per vector; border columns and the
 * last 1-3 interior ones use the scalar per-output code (pooling.h). Each lane
 * folds its taps in the scalar order, so results match the scalar variant bit
 * for bit. A tap of 4 outputs is one load for column stride 1, a
 * de-interleaving load (LD2, the even elements) for stride 2 where the 8
 * floats it reads are inside the row, and 4 lane loads otherwise.
 *
 * The including file defines POOL_FOLD(acc, v) (the step that adds tap v to
 * acc), POOL_INIT (acc's first value), POOL_FINISH(acc, p, rows) (the output
 * vector), POOL_OUTPUT (the scalar per-output function) and POOL_NAME.
 */
#include "pooling.h"

#if FOVEA_HAVE_NEON_VARIANTS
#include <arm_neon.h>

/* Input columns c, c+s, c+2s, c+3s of `row` (inside it; `width` is the row's length). */
static inline __attribute__((always_inline)) float32x4_t load_tap(const float *row, int64_t c, int64_t s,
                                                                  int64_t width) {
    if (s == 1) return vld1q_f32(row + c);
    if (s == 2 && c + 7 < width) return vld2q_f32(row + c).val[0];
    float32x4_t v = vld1q_dup_f32(row + c);
    v = vld1q_lane_f32(row + c + s, v, 1);
    v = vld1q_lane_f32(row + c + 2 * s, v, 2);
    return vld1q_lane_f32(row + c + 3 * s, v, 3);
}

static inline __attribute__((always_inline)) void pool_plane(const fovea_pool2d_params *p, const float *x, float *y,
                                                              int64_t sw) {
    const int64_t width = (int64_t)p->input_width;
    const int64_t out_height = (int64_t)p->output_height, out_width = (int64_t)p->output_width;
    const int64_t kernel_width = (int64_t)p->kernel_width;
    const int64_t sh = (int64_t)p->stride_height, dh = (int64_t)p->dilation_height, dw = (int64_t)p->dilation_width;
    const fovea_column_range interior = fovea_interior_columns(p);
    const int64_t vector_end = interior.begin + (interior.end - interior.begin) / 4 * 4;

    for (int64_t oh = 0; oh < out_height; oh++) {
        const fovea_taps rows = fovea_row_taps(p, oh);
        const int64_t ih0 = oh * sh - (int64_t)p->pad_top;
        float *y_row = y + oh * out_width;
        for (int64_t ow = 0; ow < interior.begin; ow++) y_row[ow] = POOL_OUTPUT(p, x, rows, ih0, ow);
        for (int64_t ow = vector_end; ow < out_width; ow++) y_row[ow] = POOL_OUTPUT(p, x, rows, ih0, ow);
        for (int64_t ow = interior.begin; ow < vector_end; ow += 4) {
            float32x4_t acc = POOL_INIT;
            const int64_t c0 = ow * sw - (int64_t)p->pad_left;
            for (int64_t kh = rows.first; kh < rows.end; kh++) {
                const float *row = x + (ih0 + kh * dh) * width;
                for (int64_t kw = 0; kw < kernel_width; kw++) acc = POOL_FOLD(acc, load_tap(row, c0 + kw * dw, sw, width));
            }
            vst1q_f32(y_row + ow, POOL_FINISH(acc, p, rows));
        }
    }
}

void POOL_NAME(const fovea_pool2d_params *p, const float *x, float *y) {
    /* Constant strides, so the common ones compile to their loads alone. */
    if (p->stride_width == 1) pool_plane(p, x, y, 1);
    else if (p->stride_width == 2) pool_plane(p, x, y, 2);
    else pool_plane(p, x, y, (int64_t)p->stride_width);
}

#endif
