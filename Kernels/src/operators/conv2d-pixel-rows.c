/*
 * The GEMM convolution with pixels as rows (f32_gemm_t8x32_avx512), for
 * small planes: each image's output plane splits into groups of 7-8 pixels
 * (ceil(P/8) groups as even as possible, so 49 = 7·7 and 169 = 15·8 + 7·7
 * waste nothing), and the weights, packed in panels of 32 output channels,
 * are the streamed operand. Loop order: weight panel outer, every
 * image's pixel groups inner, so each weight panel is read from
 * memory once.
 *
 * 1×1 stride-1 layers broadcast pixels straight from the input planes; the
 * others pack every pixel group's im2col rows once (K×8 floats each) into a
 * workspace shared by the threads, which then split the tiles.
 */
#include "conv2d.h"

#include <string.h>

enum { PIXELS = 8, CHANNELS = 32 };

/*
 * Where pixel rows win, measured on Zen 4 at 1 thread against the 8×32 tile
 * (GFLOP/s, ResNet-50 / MobileNetV2 / SqueezeNet 1.1 layers): 7×7 planes
 * 65-85 -> 88-113, 14×14 1024->256 89 -> 109, SqueezeNet's 13×13 512->1000
 * level or better. They lose where the reduction is short (K 48-96: 85-105
 * -> 77-94, the transposed store is a larger share), where output channels
 * leave lanes empty (48 = 32 + 16: 104 -> 80), and for im2col over many
 * columns (batch 8 of 7×7 3×3: its shared workspace leaves L2).
 */
int fovea_conv_uses_pixel_rows(const fovea_conv2d_params *p, const fovea_conv_config *conv) {
    const size_t plane = p->output_height * p->output_width;
    const size_t k = p->channels / p->groups * p->kernel_height * p->kernel_width;
    const size_t lanes = (p->output_channels + CHANNELS - 1) / CHANNELS * CHANNELS;
    return conv->gemm_pixel_rows != NULL && p->groups == 1 && k >= 128 && 10 * p->output_channels >= 9 * lanes &&
           plane <= 256 && (fovea_conv_is_pointwise(p) || p->batch * plane <= 256);
}

size_t fovea_conv_weight_panel_rows(const fovea_conv2d_params *p, const fovea_conv_config *conv) {
    return fovea_conv_uses_pixel_rows(p, conv) ? CHANNELS : conv->gemm->mr;
}

static size_t pixel_groups(const fovea_conv2d_params *p) {
    return (p->output_height * p->output_width + PIXELS - 1) / PIXELS;
}

size_t fovea_conv2d_pixel_rows_workspace_floats(const fovea_conv_header *h) {
    const fovea_conv2d_params *p = &h->params;
    if (fovea_conv_is_pointwise(p)) return 16;
    return p->batch * pixel_groups(p) * h->reduction * PIXELS;
}

#if FOVEA_HAVE_X86_VARIANTS
/* Pixel group `group` of a plane of `plane` pixels: [first, end). */
static void group_range(size_t plane, size_t groups, size_t group, size_t *first, size_t *end) {
    *first = plane * group / groups;
    *end = plane * (group + 1) / groups;
}

/* Packs the im2col rows of pixel groups [first, end) (over every image) into K×8 panels. */
static void pack_groups(const fovea_conv_header *h, const float *x, size_t first, size_t end, float *workspace) {
    const fovea_conv2d_params *p = &h->params;
    const size_t plane = p->output_height * p->output_width, groups = pixel_groups(p);
    for (size_t i = first; i < end; i++) {
        const size_t n = i / groups;
        size_t q0, q1;
        group_range(plane, groups, i % groups, &q0, &q1);
        fovea_im2col_pack(p, x, p->channels * p->input_height * p->input_width, n * plane + q0, q1 - q0, PIXELS,
                          fovea_conv_config_for((fovea_isa)h->isa), workspace + i * h->reduction * PIXELS);
    }
}

/* 3×3 stride 2, pad 1 on the left: one input row gives all three kw taps (the config's gather_stride2_taps3). */
static int is_stride2_3x3(const fovea_conv2d_params *p) {
    return fovea_conv_is_3x3_stride2(p) && p->pad_left == 1;
}

/*
 * Packs the im2col rows of input channels [first, end) (unit n·C + c: image
 * n, channel c) into every pixel group's K×8 panel. Per channel and tap, the
 * tap's values for the whole output plane are gathered row by row (one
 * stride-2 gather of OW values per output row), then dealt out 8 pixels per
 * group. For output rows wider than a group (14×14 planes: 25 groups, most
 * straddling two rows) packing group by group made ~2.6× as many short
 * gathers: ResNet-50's layer3.0 3×3 stride 2, 256 channels, 28 -> 14, went
 * 2.63-2.66 -> 2.42-2.45 ms on Zen 4 (1 thread, CPU time, best of 15), its
 * packing 17% -> 13% of the time. On 7×7 planes one group is one row, the
 * gathers are as many and the extra pass lost 3%: those pack group by group,
 * except 3×3 stride 2 pad 1, whose three kw taps come from one read of each
 * input row here (layer4.0's 512 channels, 14 -> 7: 2.64 -> 2.53 ms).
 */
static int packs_by_channel(const fovea_conv2d_params *p) {
    return p->output_width > PIXELS || is_stride2_3x3(p) || fovea_im2col_stride2_pixel_groups_applies(p);
}

/* The im2col row of tap (kh, kw) of one channel plane, for the whole output plane (OH·OW values). */
static void gather_tap_plane(const fovea_conv_config *conv, const fovea_conv2d_params *p, const float *src_plane, size_t kh,
                             size_t kw, float *dst) {
    const size_t ow_count = p->output_width;
    /* Output columns [ow_first, ow_end) read inside the row; the others are padding. */
    const int64_t iw0 = (int64_t)(kw * p->dilation_width) - (int64_t)p->pad_left;
    const int64_t width = (int64_t)p->input_width, stride = (int64_t)p->stride_width;
    int64_t ow_first = iw0 >= 0 ? 0 : (-iw0 + stride - 1) / stride;
    int64_t ow_end = iw0 >= width ? 0 : (width - iw0 + stride - 1) / stride;
    if (ow_first > (int64_t)ow_count) ow_first = (int64_t)ow_count;
    if (ow_end > (int64_t)ow_count) ow_end = (int64_t)ow_count;
    if (ow_end < ow_first) ow_end = ow_first;
    for (size_t oh = 0; oh < p->output_height; oh++, dst += ow_count) {
        const int64_t ih = (int64_t)(oh * p->stride_height + kh * p->dilation_height) - (int64_t)p->pad_top;
        if (ih < 0 || ih >= (int64_t)p->input_height) {
            for (size_t q = 0; q < ow_count; q++) dst[q] = 0.0f;
            continue;
        }
        const float *row = src_plane + ih * width + iw0 + ow_first * stride;
        const size_t count = (size_t)(ow_end - ow_first);
        for (int64_t q = 0; q < ow_first; q++) dst[q] = 0.0f;
        if (stride == 1) {
            for (size_t q = 0; q < count; q++) dst[ow_first + q] = row[q];
        } else if (stride == 2) {
            if (count > 0) conv->gather_stride2(dst + ow_first, row, count);
        } else {
            for (size_t q = 0; q < count; q++) dst[ow_first + q] = row[q * stride];
        }
        for (size_t q = (size_t)ow_end; q < ow_count; q++) dst[q] = 0.0f;
    }
}

/* The three taps (kh, 0..2) of a 3×3 stride-2 pad-1 convolution's channel plane at once. */
static void gather_tap_planes_stride2_3x3(const fovea_conv_config *conv, const fovea_conv2d_params *p,
                                          const float *src_plane, size_t kh, float *dst0, float *dst1, float *dst2) {
    const size_t ow_count = p->output_width;
    for (size_t oh = 0; oh < p->output_height; oh++) {
        const size_t at = oh * ow_count;
        const int64_t ih = (int64_t)(oh * 2 + kh) - (int64_t)p->pad_top;
        if (ih < 0 || ih >= (int64_t)p->input_height) {
            memset(dst0 + at, 0, ow_count * sizeof(float));
            memset(dst1 + at, 0, ow_count * sizeof(float));
            memset(dst2 + at, 0, ow_count * sizeof(float));
            continue;
        }
        conv->gather_stride2_taps3(dst0 + at, dst1 + at, dst2 + at, src_plane + (size_t)ih * p->input_width,
                                   p->input_width, 0, ow_count);
    }
}

/*
 * Deals one tap's plane out to every pixel group's panel row k; group g holds
 * pixels [bounds[g], bounds[g + 1]). Every group gets 8 values, a short
 * group (7 pixels) the next group's first pixel as its eighth: the tile runs
 * with MR = 7 there and never reads that lane. Copying a fixed 8 lets the
 * compiler use one 32-byte load and store where the exact count called
 * memcpy and memset (all 7 groups of a 7×7 plane are short: 4% of
 * ResNet-50's layer4.0 3×3 stride 2 went to those calls).
 */
static void deal_tap_plane(const fovea_conv_header *h, const size_t *bounds, size_t groups, size_t n, size_t k,
                           const float *tap_plane, float *workspace) {
    float *panel_row = workspace + (n * groups * h->reduction + k) * PIXELS;
    for (size_t g = 0; g < groups; g++, panel_row += h->reduction * PIXELS)
        memcpy(panel_row, tap_plane + bounds[g], PIXELS * sizeof(float));
}

static void pack_channels(const fovea_conv_header *h, const float *x, size_t first, size_t end, float *workspace) {
    const fovea_conv2d_params *p = &h->params;
    const fovea_conv_config *conv = fovea_conv_config_for((fovea_isa)h->isa);
    const size_t input_plane = p->input_height * p->input_width, taps = p->kernel_height * p->kernel_width;
    /* Pixel rows run only for planes of at most 256 pixels; the 8 past them are read by deal_tap_plane's last group. */
    float tap_planes[3][256 + PIXELS];
    memset(tap_planes, 0, sizeof tap_planes);
    const int three_taps = is_stride2_3x3(p);
    const size_t plane = p->output_height * p->output_width, groups = pixel_groups(p);
    size_t bounds[256 / PIXELS + 1]; /* group g: pixels [bounds[g], bounds[g + 1]), as group_range */
    for (size_t g = 0; g <= groups; g++) bounds[g] = plane * g / groups;
    if (fovea_im2col_stride2_pixel_groups_applies(p)) {
        conv->im2col_stride2_pixel_groups(p, x, bounds, groups, first, end, workspace);
        return;
    }
    for (size_t unit = first; unit < end; unit++) {
        const size_t n = unit / p->channels, c = unit % p->channels;
        const float *src_plane = x + (n * p->channels + c) * input_plane;
        for (size_t kh = 0; kh < p->kernel_height; kh++) {
            const size_t k = c * taps + kh * p->kernel_width;
            if (three_taps) {
                gather_tap_planes_stride2_3x3(conv, p, src_plane, kh, tap_planes[0], tap_planes[1], tap_planes[2]);
                for (size_t kw = 0; kw < 3; kw++) deal_tap_plane(h, bounds, groups, n, k + kw, tap_planes[kw], workspace);
                continue;
            }
            for (size_t kw = 0; kw < p->kernel_width; kw++) {
                gather_tap_plane(conv, p, src_plane, kh, kw, tap_planes[0]);
                deal_tap_plane(h, bounds, groups, n, k + kw, tap_planes[0], workspace);
            }
        }
    }
}

/*
 * Tiles [first, end) of the (weight panel, image, pixel group) order, weight
 * panel slowest: threads take contiguous ranges, so each reads its weight
 * panels once, and a layer with few panels (96 channels: 3) still splits
 * evenly, inside a panel's pixel groups.
 */
static void compute_tiles(const fovea_conv_header *h, const float *panels, const float *bias, const float *x,
                          float *y, size_t y_batch_stride, const fovea_epilogue *epilogue, int add,
                          const float *workspace, size_t first, size_t end) {
    const fovea_conv2d_params *p = &h->params;
    const size_t k = h->reduction, m = h->group_outputs, plane = p->output_height * p->output_width;
    const size_t groups = pixel_groups(p), input_plane = p->input_height * p->input_width;
    const size_t all_groups = p->batch * groups;
    const int pointwise = fovea_conv_is_pointwise(p);
    const fovea_gemm_ukernel_transposed_fn tile = fovea_conv_config_for((fovea_isa)h->isa)->gemm_pixel_rows;
    /*
     * The whole reduction per tile: blocking K (256-1024) so that a weight slice
     * stays in L1 was 5-20% slower on Zen 4 (ResNet-50's 7×7 layers, K 512-4608),
     * as each block adds a transposed load and store of the tile.
     */
    /*
     * Each tile of a weight panel prefetches its share of the next panel, so
     * the next panel's first tile reads it from L2 instead of waiting on
     * memory (ResNet-50's 7×7 layers: 2-8 MB of weights, each panel used by
     * only 7 tiles). Lines of one panel: CHANNELS·k floats / 16.
     */
    const size_t weight_panels = (m + CHANNELS - 1) / CHANNELS, panel_lines = CHANNELS * k / 16;
    for (size_t t = first; t < end; t++) {
        const size_t ip = t / all_groups, j = t % all_groups, n = j / groups, g = t % groups;
        const size_t channels = m - ip * CHANNELS < CHANNELS ? m - ip * CHANNELS : CHANNELS;
        size_t q0, q1;
        group_range(plane, groups, g, &q0, &q1);
        const float *a = pointwise ? x + n * p->channels * input_plane + q0 : workspace + (n * groups + g) * k * PIXELS;
        float *c = y + n * y_batch_stride + ip * CHANNELS * plane + q0;
        const float *next = NULL;
        size_t lines = 0;
        if (ip + 1 < weight_panels) {
            const size_t line0 = panel_lines * j / all_groups, line1 = panel_lines * (j + 1) / all_groups;
            next = panels + (ip + 1) * CHANNELS * k + 16 * line0;
            lines = line1 - line0;
        }
        tile(q1 - q0, channels, k, a, pointwise ? input_plane : PIXELS, panels + ip * CHANNELS * k, c, plane,
             bias + ip * CHANNELS, add, epilogue, next, lines);
    }
}
/* One layer's run, shared by the threads of its two parallel loops. */
typedef struct {
    const fovea_conv_header *h;
    const float *panels, *bias, *x;
    float *y;
    size_t y_batch_stride;
    const fovea_epilogue *epilogue;
    int add;
    float *workspace;
} pixel_rows_run;

static void pack_range(void *context, size_t begin, size_t end) {
    const pixel_rows_run *r = context;
    if (packs_by_channel(&r->h->params)) {
        pack_channels(r->h, r->x, begin, end, r->workspace);
    } else {
        pack_groups(r->h, r->x, begin, end, r->workspace);
    }
}

static void compute_range(void *context, size_t begin, size_t end) {
    const pixel_rows_run *r = context;
    compute_tiles(r->h, r->panels, r->bias, r->x, r->y, r->y_batch_stride, r->epilogue, r->add, r->workspace, begin,
                  end);
}
#endif

void fovea_conv2d_pixel_rows_run(const fovea_conv_header *h, const float *panels, const float *bias, const float *x,
                                 float *y, size_t y_batch_stride, const fovea_epilogue *epilogue, int add,
                                 float *workspace, const fovea_threadpool *threadpool, int threads) {
#if FOVEA_HAVE_X86_VARIANTS
    const fovea_conv2d_params *p = &h->params;
    const size_t weight_panels = (h->group_outputs + CHANNELS - 1) / CHANNELS;
    const size_t all_groups = p->batch * pixel_groups(p);
    const size_t tiles = weight_panels * all_groups;
    pixel_rows_run run = {h, panels, bias, x, y, y_batch_stride, epilogue, add, workspace};
    /* Every pixel group is packed before any tile reads it: the first loop's join is the barrier. */
    if (!fovea_conv_is_pointwise(p)) {
        const size_t units = packs_by_channel(p) ? p->batch * p->channels : all_groups;
        fovea_parallel_for(threadpool, threads, units, pack_range, &run);
    }
    fovea_parallel_for(threadpool, threads, tiles, compute_range, &run);
#else
    (void)h, (void)panels, (void)bias, (void)x, (void)y, (void)y_batch_stride, (void)epilogue, (void)add;
    (void)workspace, (void)threadpool, (void)threads;
#endif
}
