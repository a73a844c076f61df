/*
 * Direct convolution with few input channels, AVX2 + FMA. For each output
 * row: split the input rows it reads into the scratch (zero-padded column
 * phases: masked loads and a shuffle + permute per 8 columns of each phase),
 * then tiles of up to 4 output channels × 3 vectors of 8 pixels (12
 * accumulators of the 16 registers) run one flat loop over the row's taps: one
 * unaligned load per pixel vector and one broadcast weight per channel.
 */
#include "conv-smallc.h"
#include "../gemm/epilogue-avx2.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

#define ALWAYS_INLINE __attribute__((always_inline)) inline

/* Lanes j of 8 whose column start + j lies in [0, width), as a maskload mask. */
static ALWAYS_INLINE FOVEA_TARGET_AVX2 __m256i row_mask(int64_t start, int64_t width) {
    int64_t lo = start < 0 ? -start : 0, hi = width - start;
    if (lo > 8) lo = 8;
    if (hi > 8) hi = 8;
    if (hi < lo) hi = lo;
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    return _mm256_and_si256(_mm256_cmpgt_epi32(_mm256_set1_epi32((int)hi), lane),
                            _mm256_cmpgt_epi32(lane, _mm256_set1_epi32((int)lo - 1)));
}

static ALWAYS_INLINE FOVEA_TARGET_AVX2 __m256 load8(const float *row, int64_t start, int64_t width) {
    return _mm256_maskload_ps(row + start, row_mask(start, width));
}

/* [a0 a2 b0 b2 | a4 a6 b4 b6] (or the odd ones) → the 64-bit pairs in order 0 2 1 3. */
static ALWAYS_INLINE FOVEA_TARGET_AVX2 __m256 in_order(__m256 mixed) {
    return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(mixed), _MM_SHUFFLE(3, 1, 2, 0)));
}

/* The inside (c, kh) input rows of output row oh into the scratch, split by column phase (conv-smallc.h). */
static FOVEA_TARGET_AVX2 void split_rows(const fovea_conv2d_params *p, const float *x, int64_t oh, float *scratch) {
    const int64_t height = (int64_t)p->input_height, width = (int64_t)p->input_width;
    const int64_t stride = (int64_t)p->stride_width, pad = (int64_t)p->pad_left;
    const int64_t length = (int64_t)fovea_smallc_phase_length(p);
    const fovea_smallc_rows rows = fovea_smallc_rows_of(p, oh);
    const int64_t ih0 = oh * (int64_t)p->stride_height - (int64_t)p->pad_top;
    float *out = scratch;
    for (int64_t c = 0; c < (int64_t)p->channels; c++) {
        for (int64_t kh = rows.first; kh < rows.end; kh++) {
            const float *row = x + (c * height + ih0 + kh) * width;
            if (stride == 1) {
                for (int64_t j = 0; j < length; j += 8) _mm256_storeu_ps(out + j, load8(row, j - pad, width));
            } else {
                for (int64_t j = 0; j < length; j += 8) {
                    const __m256 low = load8(row, 2 * j - pad, width), high = load8(row, 2 * j - pad + 8, width);
                    _mm256_storeu_ps(out + j, in_order(_mm256_shuffle_ps(low, high, _MM_SHUFFLE(2, 0, 2, 0))));
                    _mm256_storeu_ps(out + length + j, in_order(_mm256_shuffle_ps(low, high, _MM_SHUFFLE(3, 1, 3, 1))));
                }
            }
            out += stride * length;
        }
    }
}

/*
 * MR output channels from m0 × NV pixel vectors from ow0 of the output row,
 * over the row's taps; the last vector stores `last_lanes` ≤ 8 columns.
 */
static ALWAYS_INLINE FOVEA_TARGET_AVX2 void tile(const fovea_conv2d_params *p, const fovea_smallc_taps *taps,
                                                 const float *scratch, const float *w, const float *bias, float *y,
                                                 int64_t m0, int64_t ow0, int64_t last_lanes, const fovea_epilogue *e,
                                                 int MR, int NV) {
    const int64_t filter = (int64_t)(p->channels * p->kernel_height * p->kernel_width);
    const int64_t out_plane = (int64_t)(p->output_height * p->output_width);
    __m256 acc[4][3];
#pragma GCC unroll 4
    for (int m = 0; m < MR; m++) {
        const __m256 b = _mm256_set1_ps(bias != NULL ? bias[m0 + m] : 0.0f);
#pragma GCC unroll 3
        for (int v = 0; v < NV; v++) acc[m][v] = b;
    }
    const float *w_block = w + m0 * filter, *in_block = scratch + ow0;
    const int64_t count = taps->count;
    for (int64_t t = 0; t < count; t++) {
        const float *in_tap = in_block + taps->scratch_offset[t];
        __m256 in[3];
#pragma GCC unroll 3
        for (int v = 0; v < NV; v++) in[v] = _mm256_loadu_ps(in_tap + 8 * v);
        const float *weights = w_block + taps->w_index[t];
#pragma GCC unroll 4
        for (int m = 0; m < MR; m++) {
            const __m256 weight = _mm256_broadcast_ss(weights + m * filter);
#pragma GCC unroll 3
            for (int v = 0; v < NV; v++) acc[m][v] = _mm256_fmadd_ps(in[v], weight, acc[m][v]);
        }
    }
    const fovea_epilogue epi = *e; /* a local copy: stores to y cannot change it */
    const __m256i last = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)last_lanes), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    float *out = y + m0 * out_plane + ow0;
#pragma GCC unroll 4
    for (int m = 0; m < MR; m++) {
#pragma GCC unroll 3
        for (int v = 0; v < NV; v++) {
            const __m256 r = fovea_epilogue_avx2(acc[m][v], &epi);
            if (v == NV - 1) {
                _mm256_maskstore_ps(out + m * out_plane + 8 * v, last, r);
            } else {
                _mm256_storeu_ps(out + m * out_plane + 8 * v, r);
            }
        }
    }
}

/* Output channels [m0, m0 + MR) of the row, in blocks of 3 pixel vectors (4 as 2 + 2, 7 as 3 + 2 + 2). */
static ALWAYS_INLINE FOVEA_TARGET_AVX2 void channels_row(const fovea_conv2d_params *p, const fovea_smallc_taps *taps,
                                                        const float *scratch, const float *w, const float *bias,
                                                        float *y, int64_t m0, const fovea_epilogue *e, int MR) {
    const int64_t out_width = (int64_t)p->output_width;
    for (int64_t ow0 = 0; ow0 < out_width;) {
        const int64_t vectors = (out_width - ow0 + 7) / 8;
        const int64_t nv = vectors == 4 ? 2 : vectors > 3 ? 3 : vectors;
        const int64_t end = ow0 + 8 * nv < out_width ? ow0 + 8 * nv : out_width;
        const int64_t last_lanes = end - (ow0 + 8 * (nv - 1));
        if (nv == 3) {
            tile(p, taps, scratch, w, bias, y, m0, ow0, last_lanes, e, MR, 3);
        } else if (nv == 2) {
            tile(p, taps, scratch, w, bias, y, m0, ow0, last_lanes, e, MR, 2);
        } else {
            tile(p, taps, scratch, w, bias, y, m0, ow0, last_lanes, e, MR, 1);
        }
        ow0 = end;
    }
}

/*
 * One output row: split its input rows, then each block of output channels
 * along the whole row (measured faster than each pixel block over all
 * channels: a channel plane's row is written in one go).
 */
FOVEA_TARGET_AVX2
void fovea_f32_conv_smallc_4x24__avx2(const fovea_conv2d_params *p, const float *x, const float *w, const float *bias, float *y, size_t oh,
        size_t m_begin, size_t m_end, const fovea_epilogue *e, float *scratch) {
    fovea_smallc_taps taps;
    fovea_smallc_taps_of(p, (int64_t)oh, &taps);
    split_rows(p, x, (int64_t)oh, scratch);
    float *y_row = y + (int64_t)oh * (int64_t)p->output_width;
    int64_t m = (int64_t)m_begin;
    for (; m + 4 <= (int64_t)m_end; m += 4) channels_row(p, &taps, scratch, w, bias, y_row, m, e, 4);
    for (; m < (int64_t)m_end; m++) channels_row(p, &taps, scratch, w, bias, y_row, m, e, 1);
}

#endif
