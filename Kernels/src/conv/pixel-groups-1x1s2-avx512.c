/*
 * Pixel-group panels of a 1×1 stride-2 convolution without padding (ResNet's
 * downsampling shortcuts on 14×14 and 7×7 outputs) gathered straight from the
 * input planes: a group's 8 pixels lie on at most two output rows, each the
 * even columns of one even input row, so one channel's 8 values are two
 * masked loads and one two-source permute. Where the masks and permute come
 * from depends only on the group, not the channel: they are worked out once
 * per call. The general path gathered each output row into a plane first and
 * then copied it out group by group.
 */
#include "conv.h"

int fovea_pixel_groups_1x1s2_applies(const fovea_conv2d_params *p) {
    /* Rows of at least 7 pixels: 8 consecutive pixels then span at most two rows. */
    return p->kernel_height == 1 && p->kernel_width == 1 && p->stride_height == 2 && p->stride_width == 2 &&
           p->pad_top == 0 && p->pad_left == 0 && p->output_width >= 7;
}

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

enum { PIXELS = 8, MAX_GROUPS = 256 / PIXELS };

/* Where one pixel group's values come from in every channel plane. */
typedef struct group_source {
    size_t offset[2];  /* of each row piece's first value in the plane */
    __mmask16 mask[2]; /* the values each piece's 16-float load reads (none: 0) */
    __m512i index;     /* output lane i: lane index[i] of the two loads (low: 0-15, high: 16-31) */
} group_source;

/* Pixels [q0, q1) of one image's output plane: the row pieces and the permute that interleaves them. */
FOVEA_TARGET_AVX512 static group_source group_source_at(const fovea_conv2d_params *p, size_t q0, size_t q1) {
    group_source s = {{0, 0}, {0, 0}, _mm512_setzero_si512()};
    int lanes[16] = {0};
    size_t q = q0;
    for (size_t piece = 0; piece < 2 && q < q1; piece++) {
        const size_t oh = q / p->output_width, ow = q % p->output_width;
        size_t count = p->output_width - ow;
        if (count > q1 - q) count = q1 - q;
        s.offset[piece] = 2 * oh * p->input_width + 2 * ow;
        s.mask[piece] = (__mmask16)((1u << (2 * count - 1)) - 1u); /* values 0, 2, ..., 2·(count − 1) */
        for (size_t i = 0; i < count; i++) lanes[q - q0 + i] = (int)(16 * piece + 2 * i);
        q += count;
    }
    s.index = _mm512_loadu_si512(lanes);
    return s;
}

FOVEA_TARGET_AVX512 void fovea_pack_pixel_groups_1x1s2__avx512(const fovea_conv2d_params *p, const float *x,
                                                               const size_t *bounds, size_t groups, size_t first,
                                                               size_t end, float *workspace) {
    group_source sources[MAX_GROUPS];
    for (size_t g = 0; g < groups; g++) sources[g] = group_source_at(p, bounds[g], bounds[g + 1]);
    const size_t input_plane = p->input_height * p->input_width, k = p->channels;
    for (size_t unit = first; unit < end; unit++) {
        const size_t n = unit / p->channels, c = unit % p->channels;
        const float *plane = x + (n * p->channels + c) * input_plane;
        float *panel_row = workspace + (n * groups * k + c) * PIXELS;
        for (size_t g = 0; g < groups; g++, panel_row += k * PIXELS) {
            const group_source *s = &sources[g];
            /* Masked-off lanes are never read; an empty piece's address is the plane's own. */
            const __m512 low = _mm512_maskz_loadu_ps(s->mask[0], plane + s->offset[0]);
            const __m512 high = _mm512_maskz_loadu_ps(s->mask[1], plane + s->offset[1]);
            const __m512 values = _mm512_permutex2var_ps(low, s->index, high);
            _mm256_storeu_ps(panel_row, _mm512_castps512_ps256(values));
        }
    }
}
#endif
