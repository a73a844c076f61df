/*
 * im2col column panels of 1×1 stride-2 convolutions (ResNet-50's layer2.0
 * shortcut, 56 -> 28) on rows of at least 16 output pixels, one 16-column
 * half panel at a time: its pixels lie on at most two output rows, each
 * piece every other value of one input row, so a channel's 16 values are
 * four masked loads, two two-source permutes (lanes in padding zeroed by
 * their masks) and one blend, stored as one aligned vector. Where the loads
 * and lanes come from depends only on the half panel, not the channel: it is
 * worked out once per panel. The general packer gathered each ≤ 16-column
 * row segment with its own call. ResNet-50's layer2.0.downsample alone, Zen 4,
 * 1 thread: 2.00-2.05 -> 1.95-1.98 ms; its packing is bound by reading the
 * input from L3 (3.2 MB, every other row).
 *
 * The code handles any kernel up to 3×3 (taps are worked out like the one
 * tap of a 1×1), but 3×3 stays with the three-tap row gather, which loads a
 * row once for its three kw taps: this packer took 0.25 ms where that one
 * took 0.19 ms for layer2.0.conv2's panels.
 */
#include "im2col.h"

#include <string.h>

enum { HALF = 16, MAX_TAPS = 9 };

int fovea_im2col_stride2_panels_applies(const fovea_conv2d_params *p, size_t nr) {
    return nr == 2 * HALF && p->stride_height == 2 && p->stride_width == 2 &&
           p->kernel_height == 1 && p->kernel_width == 1 && p->output_width >= HALF && p->channels / p->groups >= 16;
}

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

/* Where one tap's values of one half panel come from in every channel plane: up to two row pieces. */
typedef struct half_source {
    __m512i index[2];  /* piece r, output lane i: lane index[r][i] of its two loads (0-31) */
    size_t offset[2];  /* of each piece's first load in the image (channel 0) */
    __mmask16 load[2][2];
    __mmask16 keep[2]; /* output lanes each piece fills (the others: zero or the other piece) */
} half_source;

/* Tap (kh, kw) of merged columns [column, column + count) (count ≤ 16), image by image. */
FOVEA_TARGET_AVX512 static half_source half_source_at(const fovea_conv2d_params *p, size_t image_stride, size_t kh,
                                                      size_t kw, size_t column, size_t count) {
    half_source s;
    memset(&s, 0, sizeof s);
    int lanes[2][16] = {{0}};
    const size_t image_columns = p->output_height * p->output_width;
    size_t j = 0;
    for (size_t piece = 0; piece < 2 && j < count; piece++) {
        const size_t n = (column + j) / image_columns, q = (column + j) % image_columns;
        const size_t oh = q / p->output_width, ow = q % p->output_width;
        size_t run = p->output_width - ow;
        if (run > count - j) run = count - j;
        size_t row_start;
        int columns[16];
        if (fovea_stride2_row_piece(p, kh, kw, oh, ow, run, &row_start, columns)) {
            uint32_t load = 0;
            for (size_t i = 0; i < run; i++) {
                if (columns[i] < 0) continue;
                lanes[piece][j + i] = columns[i];
                s.keep[piece] |= (__mmask16)(1u << (j + i));
                load |= 1u << columns[i];
            }
            s.load[piece][0] = (__mmask16)(load & 0xFFFF);
            s.load[piece][1] = (__mmask16)(load >> 16);
            s.offset[piece] = n * image_stride + row_start;
        }
        j += run;
    }
    s.index[0] = _mm512_loadu_si512(lanes[0]);
    s.index[1] = _mm512_loadu_si512(lanes[1]);
    return s;
}

/* One piece's lanes of channel plane `x` (masked-off lanes are never read: an empty load's address is x's own). */
FOVEA_TARGET_AVX512 static inline __m512 piece_values(const half_source *s, size_t piece, const float *x) {
    const float *at = x + s->offset[piece];
    const __m512 low = _mm512_maskz_loadu_ps(s->load[piece][0], s->load[piece][0] ? at : x);
    const __m512 high = _mm512_maskz_loadu_ps(s->load[piece][1], s->load[piece][1] ? at + HALF : x);
    return _mm512_maskz_permutex2var_ps(s->keep[piece], low, s->index[piece], high);
}

FOVEA_TARGET_AVX512 void fovea_f32_im2col_stride2_panels__avx512(const fovea_conv2d_params *p, const float *x,
                                                                  size_t image_stride, size_t n0, size_t nc,
                                                                  float *packed) {
    const size_t channels = p->channels / p->groups, plane = p->input_height * p->input_width;
    const size_t taps = p->kernel_height * p->kernel_width, nr = 2 * HALF;
    half_source sources[2 * MAX_TAPS];
    for (size_t j0 = 0; j0 < nc; j0 += nr) {
        float *panel = packed + (j0 / nr) * channels * taps * nr;
        for (size_t h = 0; h < 2; h++) {
            const size_t first = j0 + h * HALF, count = first < nc ? (nc - first < HALF ? nc - first : HALF) : 0;
            for (size_t t = 0; t < taps; t++)
                sources[h * taps + t] = half_source_at(p, image_stride, t / p->kernel_width, t % p->kernel_width,
                                                       n0 + first, count);
        }
        const float *channel = x;
        for (size_t c = 0; c < channels; c++, channel += plane) {
            float *rows = panel + c * taps * nr;
            for (size_t t = 0; t < taps; t++, rows += nr) {
                for (size_t h = 0; h < 2; h++) {
                    const half_source *s = &sources[h * taps + t];
                    const __m512 v = _mm512_mask_blend_ps(s->keep[1], piece_values(s, 0, channel),
                                                          piece_values(s, 1, channel));
                    _mm512_storeu_ps(rows + h * HALF, v);
                }
            }
        }
    }
}
#endif
