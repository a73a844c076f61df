/*
 * Internal pieces of the direct small-channel convolution (fovea_conv_smallc.h):
 * the variant signature and the tap arithmetic every variant shares. Not part
 * of the public API.
 *
 * A variant computes output row `oh` of output channels [m_begin, m_end) of one
 * image, from that image's input planes, and applies the epilogue. Variants
 * assume checked parameters (every size within FOVEA_KERNELS_MAX_EXTENT, so
 * int64_t arithmetic never overflows) and never read outside a row of the
 * input. `scratch` holds fovea_smallc_scratch_floats floats of the thread's own.
 */
#ifndef FOVEA_KERNELS_DIRECT_CONV_SMALLC_H
#define FOVEA_KERNELS_DIRECT_CONV_SMALLC_H

#include "fovea_kernels.h"
#include "../../runtime/runtime.h"
#include "../gemm/gemm.h" /* fovea_epilogue */

#include <stdint.h>

typedef void (*fovea_conv_smallc_fn)(const fovea_conv2d_params *p, const float *x, const float *w, const float *bias,
                                     float *y, size_t oh, size_t m_begin, size_t m_end, const fovea_epilogue *e,
                                     float *scratch);

void fovea_f32_conv_smallc_1x1__scalar(const fovea_conv2d_params *p, const float *x, const float *w,
                                       const float *bias, float *y, size_t oh, size_t m_begin, size_t m_end,
                                       const fovea_epilogue *e, float *scratch);
#if FOVEA_HAVE_X86_VARIANTS
void fovea_f32_conv_smallc_4x24__avx2(const fovea_conv2d_params *p, const float *x, const float *w, const float *bias,
                                      float *y, size_t oh, size_t m_begin, size_t m_end, const fovea_epilogue *e, float *scratch);
void fovea_f32_conv_smallc_8x48__avx512(const fovea_conv2d_params *p, const float *x, const float *w,
                                        const float *bias, float *y, size_t oh, size_t m_begin, size_t m_end,
                                        const fovea_epilogue *e, float *scratch);
#endif

/* The kernel rows [first, end) of output row oh that lie inside the input (dilation 1). */
typedef struct fovea_smallc_rows {
    int64_t first;
    int64_t end; /* end <= first: none */
} fovea_smallc_rows;

static inline fovea_smallc_rows fovea_smallc_rows_of(const fovea_conv2d_params *p, int64_t oh) {
    const int64_t start = oh * (int64_t)p->stride_height - (int64_t)p->pad_top;
    const int64_t kernel = (int64_t)p->kernel_height, height = (int64_t)p->input_height;
    fovea_smallc_rows r;
    r.first = start >= 0 ? 0 : -start;
    r.end = height - start < kernel ? height - start : kernel;
    return r;
}

/*
 * The SIMD variants first copy the input rows an output row reads into the
 * thread's scratch, split by column phase and zero-padded: phase r of a row
 * holds input columns j·stride + r − pad_left for j < L (zero outside the
 * input). Kernel column kw then reads phase kw % stride from lane offset
 * ow + kw / stride: contiguous loads for stride 2, and no masks at the borders.
 * L covers the output row rounded up to 16 lanes plus the kernel's reach.
 */
static inline size_t fovea_smallc_phase_length(const fovea_conv2d_params *p) {
    const size_t reach = (p->kernel_width - 1) / p->stride_width + 1;
    return ((p->output_width + 15) / 16 * 16 + reach + 15) / 16 * 16;
}

/* Scratch floats one thread needs: every (channel, kernel row) of an output row, each phase. */
static inline size_t fovea_smallc_scratch_floats(const fovea_conv2d_params *p) {
    return p->channels * p->kernel_height * p->stride_width * fovea_smallc_phase_length(p);
}

/*
 * The taps of one output row that lie inside the input rows, in (c, kh, kw)
 * order: where each reads in the split scratch (for output column 0) and its
 * weight's index within an output channel's filter. The SIMD variants run one
 * flat loop over this list (as a GEMM runs over K) instead of nested loops
 * over c, kh and kw of 3 to 7 iterations each.
 */
#define FOVEA_SMALLC_MAX_TAPS (FOVEA_CONV_SMALLC_MAX_CHANNELS * FOVEA_CONV_SMALLC_MAX_KERNEL * FOVEA_CONV_SMALLC_MAX_KERNEL)

typedef struct fovea_smallc_taps {
    int64_t count;
    int64_t scratch_offset[FOVEA_SMALLC_MAX_TAPS];
    int64_t w_index[FOVEA_SMALLC_MAX_TAPS];
} fovea_smallc_taps;

/* The taps of output row oh; the split rows are the row's inside (c, kh) pairs in order. */
static inline void fovea_smallc_taps_of(const fovea_conv2d_params *p, int64_t oh, fovea_smallc_taps *taps) {
    const int64_t kh_count = (int64_t)p->kernel_height, kw_count = (int64_t)p->kernel_width;
    const int64_t stride = (int64_t)p->stride_width, length = (int64_t)fovea_smallc_phase_length(p);
    const fovea_smallc_rows rows = fovea_smallc_rows_of(p, oh);
    int64_t n = 0, split_row = 0;
    for (int64_t c = 0; c < (int64_t)p->channels; c++) {
        for (int64_t kh = rows.first; kh < rows.end; kh++, split_row++) {
            for (int64_t kw = 0; kw < kw_count; kw++, n++) {
                taps->scratch_offset[n] = (split_row * stride + kw % stride) * length + kw / stride;
                taps->w_index[n] = (c * kh_count + kh) * kw_count + kw;
            }
        }
    }
    taps->count = n;
}

#endif
