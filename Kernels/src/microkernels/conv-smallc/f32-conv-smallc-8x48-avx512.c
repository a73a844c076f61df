/*
 * Direct convolution with few input channels, AVX-512. For each output row:
 * split the input rows it reads into the scratch (zero-padded column phases,
 * two masked loads and two permutes per 16 columns of each phase), then tiles
 * of up to 8 output channels × 3 vectors of 16 pixels (24 accumulators) run
 * one flat loop over the row's taps: one unaligned load per pixel vector and
 * one broadcast weight per channel, as a GEMM microkernel over K = C·k·k.
 */
#include "conv-smallc.h"
#include "../gemm/epilogue-avx512.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

#define ALWAYS_INLINE __attribute__((always_inline)) inline

/* Lanes j of 16 whose column start + j lies in [0, width). */
static ALWAYS_INLINE FOVEA_TARGET_AVX512 __mmask16 row_mask(int64_t start, int64_t width) {
    int64_t lo = start < 0 ? -start : 0, hi = width - start;
    if (lo > 16) lo = 16;
    if (hi > 16) hi = 16;
    if (hi < lo) hi = lo;
    return (__mmask16)(((1u << hi) - 1u) & ~((1u << lo) - 1u));
}

/* The inside (c, kh) input rows of output row oh into the scratch, split by column phase (conv-smallc.h). */
static FOVEA_TARGET_AVX512 void split_rows(const fovea_conv2d_params *p, const float *x, int64_t oh, float *scratch) {
    const int64_t height = (int64_t)p->input_height, width = (int64_t)p->input_width;
    const int64_t stride = (int64_t)p->stride_width, pad = (int64_t)p->pad_left;
    const int64_t length = (int64_t)fovea_smallc_phase_length(p);
    const fovea_smallc_rows rows = fovea_smallc_rows_of(p, oh);
    const int64_t ih0 = oh * (int64_t)p->stride_height - (int64_t)p->pad_top;
    const __m512i evens = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    const __m512i odds = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
    float *out = scratch;
    for (int64_t c = 0; c < (int64_t)p->channels; c++) {
        for (int64_t kh = rows.first; kh < rows.end; kh++) {
            const float *row = x + (c * height + ih0 + kh) * width;
            if (stride == 1) {
                for (int64_t j = 0; j < length; j += 16) {
                    const int64_t start = j - pad;
                    const int inside = start >= 0 && start + 16 <= width; /* most of a row: no mask to make */
                    _mm512_storeu_ps(out + j, inside ? _mm512_loadu_ps(row + start)
                                                     : _mm512_maskz_loadu_ps(row_mask(start, width), row + start));
                }
            } else {
                for (int64_t j = 0; j < length; j += 16) {
                    const int64_t start = 2 * j - pad;
                    const int inside = start >= 0 && start + 32 <= width;
                    const __m512 low = inside ? _mm512_loadu_ps(row + start)
                                              : _mm512_maskz_loadu_ps(row_mask(start, width), row + start);
                    const __m512 high = inside ? _mm512_loadu_ps(row + start + 16)
                                               : _mm512_maskz_loadu_ps(row_mask(start + 16, width), row + start + 16);
                    _mm512_storeu_ps(out + j, _mm512_permutex2var_ps(low, evens, high));
                    _mm512_storeu_ps(out + length + j, _mm512_permutex2var_ps(low, odds, high));
                }
            }
            out += stride * length;
        }
    }
}

/*
 * MR output channels from m0 × NV pixel vectors from ow0 of the output row,
 * over the row's taps; the last vector stores `last_lanes` ≤ 16 columns.
 */
static ALWAYS_INLINE FOVEA_TARGET_AVX512 void tile(const fovea_conv2d_params *p, const fovea_smallc_taps *taps,
                                                   const float *scratch, const float *w, const float *bias, float *y,
                                                   int64_t m0, int64_t ow0, int64_t last_lanes,
                                                   const fovea_epilogue *e, int MR, int NV) {
    const int64_t filter = (int64_t)(p->channels * p->kernel_height * p->kernel_width);
    const int64_t out_plane = (int64_t)(p->output_height * p->output_width);
    __m512 acc[8][3];
#pragma GCC unroll 8
    for (int m = 0; m < MR; m++) {
        const __m512 b = _mm512_set1_ps(bias != NULL ? bias[m0 + m] : 0.0f);
#pragma GCC unroll 3
        for (int v = 0; v < NV; v++) acc[m][v] = b;
    }
    const float *w_block = w + m0 * filter, *in_block = scratch + ow0;
    const int64_t count = taps->count;
    for (int64_t t = 0; t < count; t++) {
        const float *in_tap = in_block + taps->scratch_offset[t];
        __m512 in[3];
#pragma GCC unroll 3
        for (int v = 0; v < NV; v++) in[v] = _mm512_loadu_ps(in_tap + 16 * v);
        const float *weights = w_block + taps->w_index[t];
#pragma GCC unroll 8
        for (int m = 0; m < MR; m++) {
            const __m512 weight = _mm512_set1_ps(weights[m * filter]);
#pragma GCC unroll 3
            for (int v = 0; v < NV; v++) acc[m][v] = _mm512_fmadd_ps(in[v], weight, acc[m][v]);
        }
    }
    const fovea_epilogue epi = *e; /* a local copy: stores to y cannot change it */
    const __mmask16 last = (__mmask16)((1u << last_lanes) - 1u);
    float *out = y + m0 * out_plane + ow0;
#pragma GCC unroll 8
    for (int m = 0; m < MR; m++) {
#pragma GCC unroll 3
        for (int v = 0; v < NV; v++) {
            const __m512 r = fovea_epilogue_avx512(acc[m][v], &epi);
            if (v == NV - 1) {
                _mm512_mask_storeu_ps(out + m * out_plane + 16 * v, last, r);
            } else {
                _mm512_storeu_ps(out + m * out_plane + 16 * v, r);
            }
        }
    }
}

/* Output channels [m0, m0 + MR) of the row, in blocks of 3 pixel vectors (4 as 2 + 2, 7 as 3 + 2 + 2). */
static ALWAYS_INLINE FOVEA_TARGET_AVX512 void channels_row(const fovea_conv2d_params *p, const fovea_smallc_taps *taps,
                                                        const float *scratch, const float *w, const float *bias,
                                                        float *y, int64_t m0, const fovea_epilogue *e, int MR) {
    const int64_t out_width = (int64_t)p->output_width;
    for (int64_t ow0 = 0; ow0 < out_width;) {
        const int64_t vectors = (out_width - ow0 + 15) / 16;
        const int64_t nv = vectors == 4 ? 2 : vectors > 3 ? 3 : vectors;
        const int64_t end = ow0 + 16 * nv < out_width ? ow0 + 16 * nv : out_width;
        const int64_t last_lanes = end - (ow0 + 16 * (nv - 1));
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
 * Asks for what output row oh + 1 will touch while row oh computes: its input
 * rows (read) and, after each block of 8 channels, that block's output row
 * (prefetchw: write). A stem's output row is 32-64 planes × a few lines
 * each, runs too short for the hardware prefetcher, and inside a network
 * both the image and the output planes come from memory. MobileNetV2's stem
 * (3->32, stride 2, 224 -> 112) with caches flushed before each run, Zen 4,
 * 1 thread: 0.337 -> 0.304 ms (median of 4 alternated runs of 201).
 */
static FOVEA_TARGET_AVX512 void prefetch_next_input_rows(const fovea_conv2d_params *p, const float *x, int64_t oh) {
    const int64_t width = (int64_t)p->input_width, height = (int64_t)p->input_height;
    for (int64_t c = 0; c < (int64_t)p->channels; c++) {
        for (int64_t kh = 0; kh < (int64_t)p->kernel_height; kh++) {
            const int64_t ih = (oh + 1) * (int64_t)p->stride_height - (int64_t)p->pad_top + kh;
            if (ih < 0 || ih >= height) continue;
            const char *row = (const char *)(x + (c * height + ih) * width);
            for (int64_t byte = 0; byte < width * (int64_t)sizeof(float); byte += 64) _mm_prefetch(row + byte, _MM_HINT_T0);
        }
    }
}

static FOVEA_TARGET_AVX512 void prefetch_next_output_rows(const fovea_conv2d_params *p, float *y_row, int64_t m0,
                                                          int64_t count) {
    const int64_t out_plane = (int64_t)(p->output_height * p->output_width), out_width = (int64_t)p->output_width;
    for (int64_t j = 0; j < count; j++) {
        char *next = (char *)(y_row + (m0 + j) * out_plane + out_width);
        for (int64_t byte = 0; byte < out_width * (int64_t)sizeof(float); byte += 64) _m_prefetchw(next + byte);
    }
}

/*
 * One output row: split its input rows, then each block of output channels
 * along the whole row (measured faster than each pixel block over all
 * channels: a channel plane's row is written in one go).
 */
FOVEA_TARGET_AVX512
void fovea_f32_conv_smallc_8x48__avx512(const fovea_conv2d_params *p, const float *x, const float *w, const float *bias, float *y, size_t oh,
        size_t m_begin, size_t m_end, const fovea_epilogue *e, float *scratch) {
    fovea_smallc_taps taps;
    fovea_smallc_taps_of(p, (int64_t)oh, &taps);
    split_rows(p, x, (int64_t)oh, scratch);
    float *y_row = y + (int64_t)oh * (int64_t)p->output_width;
    const int has_next = oh + 1 < p->output_height;
    if (has_next) prefetch_next_input_rows(p, x, (int64_t)oh);
    int64_t m = (int64_t)m_begin;
    for (; m + 8 <= (int64_t)m_end; m += 8) {
        channels_row(p, &taps, scratch, w, bias, y_row, m, e, 8);
        if (has_next) prefetch_next_output_rows(p, y_row, m, 8);
    }
    for (; m + 4 <= (int64_t)m_end; m += 4) channels_row(p, &taps, scratch, w, bias, y_row, m, e, 4);
    for (; m < (int64_t)m_end; m++) channels_row(p, &taps, scratch, w, bias, y_row, m, e, 1);
}

#endif
