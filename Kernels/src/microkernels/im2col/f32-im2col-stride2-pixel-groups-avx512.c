/*
 * Pixel-group panels of stride-2 convolutions up to 3×3 on pixel rows
 * (ResNet's downsampling: 1×1 shortcuts and 3×3 pad-1 convolutions on 14×14
 * and 7×7 outputs) gathered straight from the input planes. A group's 8
 * pixels lie on at most two output rows; for one tap each row piece is every
 * other value of one input row, so a channel's 8 values of a tap are two
 * masked loads and one two-source permute, with the lanes that fall in
 * padding zeroed by the permute's mask. Where the loads and lanes come from
 * depends only on the group and tap, not the channel: it is worked out once
 * per call. The general path gathered each tap's whole output plane row by
 * row and then copied it out group by group.
 */
#include "im2col.h"

enum { PIXELS = 8, MAX_GROUPS = 256 / PIXELS, MAX_TAPS = 9 };

int fovea_im2col_stride2_pixel_groups_applies(const fovea_conv2d_params *p) {
    /* Rows of at least 7 pixels: 8 consecutive pixels then span at most two rows. */
    return p->stride_height == 2 && p->stride_width == 2 && p->kernel_height <= 3 && p->kernel_width <= 3 &&
           p->output_width >= 7 && p->output_height * p->output_width <= MAX_GROUPS * PIXELS;
}

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

/* Where one tap's values of one pixel group come from in every channel plane. */
typedef struct tap_source {
    __m512i index;     /* output lane i: lane index[i] of the two loads (first: 0-15, second: 16-31) */
    size_t offset[2];  /* of each load's first value in the plane */
    __mmask16 load[2]; /* the values each load reads (none: 0) */
    __mmask16 keep;    /* output lanes inside the input (the others are padding: zero) */
} tap_source;

/* Tap (kh, kw) of pixels [q0, q1) of one image's output plane. */
FOVEA_TARGET_AVX512 static tap_source tap_source_at(const fovea_conv2d_params *p, size_t kh, size_t kw, size_t q0,
                                                    size_t q1) {
    tap_source s;
    s.offset[0] = s.offset[1] = 0;
    s.load[0] = s.load[1] = 0;
    s.keep = 0;
    int lanes[16] = {0};
    size_t q = q0;
    for (size_t piece = 0; piece < 2 && q < q1; piece++) {
        const size_t oh = q / p->output_width, ow = q % p->output_width;
        size_t count = p->output_width - ow;
        if (count > q1 - q) count = q1 - q;
        size_t row_start;
        int columns[16];
        if (fovea_stride2_row_piece(p, kh, kw, oh, ow, count, &row_start, columns)) {
            for (size_t i = 0; i < count; i++) {
                if (columns[i] < 0) continue;
                lanes[q - q0 + i] = (int)(16 * piece) + columns[i];
                s.keep |= (__mmask16)(1u << (q - q0 + i));
                s.load[piece] |= (__mmask16)(1u << columns[i]);
            }
            s.offset[piece] = row_start;
        }
        q += count;
    }
    s.index = _mm512_loadu_si512(lanes);
    return s;
}

FOVEA_TARGET_AVX512 void fovea_f32_im2col_stride2_pixel_groups__avx512(const fovea_conv2d_params *p, const float *x,
                                                                 const size_t *bounds, size_t groups, size_t first,
                                                                 size_t end, float *workspace) {
    const size_t taps = p->kernel_height * p->kernel_width, k = p->channels * taps;
    tap_source sources[MAX_GROUPS * MAX_TAPS];
    for (size_t g = 0; g < groups; g++)
        for (size_t t = 0; t < taps; t++)
            sources[g * taps + t] =
                tap_source_at(p, t / p->kernel_width, t % p->kernel_width, bounds[g], bounds[g + 1]);
    const size_t input_plane = p->input_height * p->input_width;
    for (size_t unit = first; unit < end; unit++) {
        const size_t n = unit / p->channels, c = unit % p->channels;
        const float *plane = x + (n * p->channels + c) * input_plane;
        float *panel_rows = workspace + (n * groups * k + c * taps) * PIXELS;
        const tap_source *s = sources;
        for (size_t g = 0; g < groups; g++, panel_rows += k * PIXELS) {
            for (size_t t = 0; t < taps; t++, s++) {
                /* Masked-off lanes are never read; an empty load's address is the plane's own. */
                const __m512 low = _mm512_maskz_loadu_ps(s->load[0], plane + s->offset[0]);
                const __m512 high = _mm512_maskz_loadu_ps(s->load[1], plane + s->offset[1]);
                const __m512 values = _mm512_maskz_permutex2var_ps(s->keep, low, s->index, high);
                _mm256_storeu_ps(panel_rows + t * PIXELS, _mm512_castps512_ps256(values));
            }
        }
    }
}
#endif
