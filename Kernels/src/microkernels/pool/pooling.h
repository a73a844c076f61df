/*
 * Internal pieces shared by the pooling kernels: the per-ISA variant
 * signatures, window arithmetic and the scalar per-output computations that
 * every variant uses for border outputs. Not part of the public API.
 *
 * A variant computes one plane (one channel of one batch item); the exported
 * entry points check the arguments, pick the variant and run it over all
 * planes (in parallel on the caller's pool). Variants assume checked parameters (all
 * sizes fit in int64_t). A window may hold no input element (only padding):
 * max pooling then gives -FLT_MAX and average pooling 0, as the reference backend.
 */
#ifndef FOVEA_KERNELS_POOLING_H
#define FOVEA_KERNELS_POOLING_H

#include "fovea_kernels.h"
#include "../../runtime/runtime.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/*
 * The window arithmetic and per-output code below is inlined into every
 * variant, so it is compiled for the variant's ISA and costs no call (an
 * out-of-line copy, which compilers may otherwise make once these functions
 * grow, made border-heavy shapes twice as slow).
 */
#define FOVEA_POOL_INLINE static inline __attribute__((always_inline))

/* ---- Variants ------------------------------------------------------------ */

/* 2-D pooling of one plane: x is input_height×input_width, y output_height×output_width. */
typedef void (*fovea_pool2d_plane_fn)(const fovea_pool2d_params *p, const float *x, float *y);

/* Global pooling of one plane of `count` >= 1 elements. */
typedef float (*fovea_global_pool_plane_fn)(size_t count, const float *x);

void fovea_f32_maxpool2d__scalar(const fovea_pool2d_params *p, const float *x, float *y);
void fovea_f32_avgpool2d__scalar(const fovea_pool2d_params *p, const float *x, float *y);
float fovea_f32_global_maxpool__scalar(size_t count, const float *x);
float fovea_f32_global_avgpool__scalar(size_t count, const float *x);

#if FOVEA_HAVE_X86_VARIANTS
void fovea_f32_maxpool2d__avx2(const fovea_pool2d_params *p, const float *x, float *y);
void fovea_f32_avgpool2d__avx2(const fovea_pool2d_params *p, const float *x, float *y);
float fovea_f32_global_maxpool__avx2(size_t count, const float *x);
float fovea_f32_global_avgpool__avx2(size_t count, const float *x);

void fovea_f32_maxpool2d__avx512(const fovea_pool2d_params *p, const float *x, float *y);
void fovea_f32_avgpool2d__avx512(const fovea_pool2d_params *p, const float *x, float *y);
float fovea_f32_global_maxpool__avx512(size_t count, const float *x);
float fovea_f32_global_avgpool__avx512(size_t count, const float *x);
#endif
#if FOVEA_HAVE_NEON_VARIANTS
void fovea_f32_maxpool2d__neon(const fovea_pool2d_params *p, const float *x, float *y);
void fovea_f32_avgpool2d__neon(const fovea_pool2d_params *p, const float *x, float *y);
float fovea_f32_global_maxpool__neon(size_t count, const float *x);
float fovea_f32_global_avgpool__neon(size_t count, const float *x);
#endif

/* ---- Max semantics ------------------------------------------------------- */

/*
 * Max pooling computes exactly what FoveaCore's reference backend computes
 * (ReferencePooling, LayerCheck.poolingSpecialCases), bit for bit:
 *
 *  - 2-D max pooling folds the window's input taps in tap order (row by row,
 *    left to right) into an accumulator that starts at -FLT_MAX with
 *    `acc = x > acc ? x : acc` (fovea_max_step_f32). So NaN never wins (the
 *    comparison is false), -inf never beats -FLT_MAX, and among equal values
 *    the first one stays (+0 then -0 gives +0; -0 then +0 gives -0). A window
 *    of nothing but NaN, -inf and padding gives -FLT_MAX.
 *    SIMD variants fold one output per lane in the same tap order with
 *    _mm*_max_ps(x, acc), which returns its second operand when the operands
 *    are equal or either is NaN: the same rule, lane by lane.
 *
 *  - Global max pooling folds the plane in memory order from -inf with
 *    Swift.max's rule `acc = x >= acc ? x : acc` (fovea_global_max_step_f32):
 *    NaN is skipped, a plane of NaN and -inf gives -inf, and among equal values
 *    the last one stays. The largest value does not depend on the order, only
 *    the sign of a zero result does; SIMD variants therefore take the maximum
 *    lane-wise and, when it is zero, return the last zero of the plane
 *    (fovea_global_max_zero_sign).
 */
static inline float fovea_max_step_f32(float acc, float x) {
    return x > acc ? x : acc;
}

static inline float fovea_global_max_step_f32(float acc, float x) {
    return x >= acc ? x : acc;
}

/*
 * The global maximum of x[0 ..< count] given its value `max` (NaN ignored,
 * sign of zero unknown): `max` itself unless it is zero, else the last zero of
 * the plane (+0 or -0), which is what the in-order fold keeps.
 */
static inline float fovea_global_max_zero_sign(size_t count, const float *x, float max) {
    if (max != 0.0f) return max;
    for (size_t i = count; i > 0; i--) {
        if (x[i - 1] == 0.0f) return x[i - 1];
    }
    return max; /* not reached: a zero maximum is one of the elements */
}

/* ---- Window arithmetic --------------------------------------------------- */

/* The taps of one window along one axis. */
typedef struct fovea_taps {
    int64_t first;  /* first tap inside the input */
    int64_t end;    /* one past the last tap inside the input (end <= first: none) */
    int64_t padded; /* taps 0 ..< padded lie inside input + pads (for count_include_pad) */
} fovea_taps;

/* The number of taps inside the input (0 for a window in the padding). */
static inline int64_t fovea_tap_count(fovea_taps taps) {
    return taps.end > taps.first ? taps.end - taps.first : 0;
}

/*
 * Output `index` along an axis starts at input position index*stride - pad_begin
 * and has `kernel` taps `dilation` apart.
 */
FOVEA_POOL_INLINE fovea_taps fovea_axis_taps(int64_t index, int64_t input_size, int64_t kernel, int64_t stride,
                                             int64_t dilation, int64_t pad_begin, int64_t pad_end) {
    const int64_t start = index * stride - pad_begin;
    fovea_taps taps;
    if (dilation == 1) { /* the common case, without the three divisions (they cost as much as a small row) */
        const int64_t end = input_size - start, padded = input_size + pad_end - start;
        taps.first = start >= 0 ? 0 : -start;
        taps.end = end <= 0 ? 0 : end < kernel ? end : kernel;
        taps.padded = padded <= 0 ? 0 : padded < kernel ? padded : kernel;
        return taps;
    }
    taps.first = start >= 0 ? 0 : (-start + dilation - 1) / dilation;
    const int64_t room = input_size - start;
    const int64_t end = room <= 0 ? 0 : (room + dilation - 1) / dilation;
    taps.end = end < kernel ? end : kernel;
    const int64_t padded_room = input_size + pad_end - start;
    const int64_t padded = padded_room <= 0 ? 0 : (padded_room + dilation - 1) / dilation;
    taps.padded = padded < kernel ? padded : kernel;
    return taps;
}

FOVEA_POOL_INLINE fovea_taps fovea_row_taps(const fovea_pool2d_params *p, int64_t oh) {
    return fovea_axis_taps(oh, (int64_t)p->input_height, (int64_t)p->kernel_height, (int64_t)p->stride_height,
                           (int64_t)p->dilation_height, (int64_t)p->pad_top, (int64_t)p->pad_bottom);
}

FOVEA_POOL_INLINE fovea_taps fovea_column_taps(const fovea_pool2d_params *p, int64_t ow) {
    return fovea_axis_taps(ow, (int64_t)p->input_width, (int64_t)p->kernel_width, (int64_t)p->stride_width,
                           (int64_t)p->dilation_width, (int64_t)p->pad_left, (int64_t)p->pad_right);
}

/* Output columns [begin, end) whose every tap lies inside the input: the SIMD part of a row. */
typedef struct fovea_column_range {
    int64_t begin;
    int64_t end;
} fovea_column_range;

FOVEA_POOL_INLINE fovea_column_range fovea_interior_columns(const fovea_pool2d_params *p) {
    const int64_t width = (int64_t)p->input_width, out_width = (int64_t)p->output_width;
    const int64_t stride = (int64_t)p->stride_width, pad = (int64_t)p->pad_left;
    const int64_t span = ((int64_t)p->kernel_width - 1) * (int64_t)p->dilation_width;
    fovea_column_range range;
    range.begin = (pad + stride - 1) / stride;
    const int64_t last_start = width - 1 + pad - span; /* largest ow*stride that fits */
    range.end = last_start < 0 ? 0 : last_start / stride + 1;
    if (range.begin > out_width) range.begin = out_width;
    if (range.end > out_width) range.end = out_width;
    if (range.end < range.begin) range.end = range.begin;
    return range;
}

/*
 * Row pairs: when the windows of consecutive output rows overlap (dense rows,
 * stride_height < kernel_height, as 3×3 stride 2), a SIMD variant computes
 * output rows oh and oh+1 together, loading and shuffling each input row of
 * their windows once and folding it into each output whose window holds it
 * (each output still in tap order). Only when both windows hold input rows:
 * then their rows are one contiguous run inside the input.
 */
FOVEA_POOL_INLINE int fovea_row_pairs(const fovea_pool2d_params *p) {
    return p->dilation_height == 1 && p->stride_height < p->kernel_height;
}

/*
 * Stride-2 rows (see load-avx2.h / load-avx512.h): the tap at column offset
 * `off` of `lanes` consecutive stride-2 outputs is loaded from row + base,
 * base = off rounded down to even, with the taps at base and base+1 sharing
 * the loads. How many elements from row + base those loads may read: the evens
 * up to 2*(lanes-1), and the odds up to 2*lanes-1 if there is a tap at base+1
 * (with dilation 1: if base+1 < kernel_width; with a larger dilation only the
 * tap itself can be there). Reading no further keeps every load inside the
 * window taps, so inside the input.
 */
FOVEA_POOL_INLINE int64_t fovea_s2_count(int64_t off, int64_t lanes, int64_t kernel_width, int64_t dilation) {
    const int64_t base = off & ~(int64_t)1;
    const int64_t odd_tap = dilation == 1 ? base + 1 < kernel_width : off & 1;
    return 2 * lanes - 1 + odd_tap;
}

/* ---- Scalar per-output computations (also the border path of SIMD variants) ---- */

/*
 * Max over the window of output (oh, ow) (-FLT_MAX if it holds no input);
 * `rows` are oh's row taps, input row ih0 is its start.
 */
FOVEA_POOL_INLINE float fovea_maxpool2d_output(const fovea_pool2d_params *p, const float *x, fovea_taps rows,
                                               int64_t ih0, int64_t ow) {
    const int64_t width = (int64_t)p->input_width;
    const int64_t dh = (int64_t)p->dilation_height, dw = (int64_t)p->dilation_width;
    const fovea_taps cols = fovea_column_taps(p, ow);
    const int64_t iw0 = ow * (int64_t)p->stride_width - (int64_t)p->pad_left;
    float max = -FLT_MAX;
    for (int64_t kh = rows.first; kh < rows.end; kh++) {
        const int64_t row = (ih0 + kh * dh) * width + iw0; /* may be negative; row + kw*dw is not */
        for (int64_t kw = cols.first; kw < cols.end; kw++) max = fovea_max_step_f32(max, x[row + kw * dw]);
    }
    return max;
}

/*
 * The divisor of an average-pooling window (see count_include_pad). A window
 * with nothing to count holds no input either: its sum is +0 and the divisor
 * 1, so it gives +0, as the reference backend does (it skips the division).
 */
FOVEA_POOL_INLINE float fovea_avgpool2d_divisor(const fovea_pool2d_params *p, fovea_taps rows, fovea_taps cols) {
    const int64_t count = p->count_include_pad ? rows.padded * cols.padded
                                               : fovea_tap_count(rows) * fovea_tap_count(cols);
    return count > 0 ? (float)count : 1.0f;
}

/* Average over the window of output (oh, ow), summed row by row in tap order. */
FOVEA_POOL_INLINE float fovea_avgpool2d_output(const fovea_pool2d_params *p, const float *x, fovea_taps rows,
                                               int64_t ih0, int64_t ow) {
    const int64_t width = (int64_t)p->input_width;
    const int64_t dh = (int64_t)p->dilation_height, dw = (int64_t)p->dilation_width;
    const fovea_taps cols = fovea_column_taps(p, ow);
    const int64_t iw0 = ow * (int64_t)p->stride_width - (int64_t)p->pad_left;
    float sum = 0.0f;
    for (int64_t kh = rows.first; kh < rows.end; kh++) {
        const int64_t row = (ih0 + kh * dh) * width + iw0;
        for (int64_t kw = cols.first; kw < cols.end; kw++) sum += x[row + kw * dw];
    }
    return sum / fovea_avgpool2d_divisor(p, rows, cols);
}

#endif
