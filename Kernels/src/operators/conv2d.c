/*
 * The GEMM convolution: per group, Y = A · B with A the packed weights (M×K)
 * and B the input planes (1×1) or im2col columns, one GEMM over the whole
 * batch: B's columns are every image's output pixels in turn (N·OH·OW), so
 * small planes (7×7, 14×14) fill whole column panels and the weights stream
 * through the cache once per column block instead of once per image. B is
 * packed block by block into each thread's workspace slice.
 *
 * Work is split into units (group, column block, row chunk), row chunk
 * fastest, so a thread with consecutive units of one column block packs it
 * once. The parallel loop only hands each thread a contiguous range of units.
 */
#include "conv2d.h"

#include <string.h>

/* Reduction depth per microkernel call: an A panel slice of 8×512 floats (16 KB) stays in L1. */
static const size_t k_block = 512;

/*
 * The reduction split into equal blocks of at most k_block: K = 1152
 * (3×3 on 128 channels) runs as 3 × 384, not 512 + 512 + 128, whose short
 * last block paid the tile's load, add and store for a quarter of the FMAs.
 * Column blocks stay sized for k_block: sized for the shorter step they
 * held 5 panels instead of 4 (737 KB of packed B next to 590 KB of weights
 * in a 1 MB L2), and ResNet-50's layer2.0.conv2 lost inside the network
 * what it gained alone.
 */
static size_t k_step(size_t k) {
    const size_t blocks = (k + k_block - 1) / k_block;
    return blocks > 0 ? (k + blocks - 1) / blocks : k;
}
/* Floats of one k-block × column block of packed B: 64 K floats (256 KB) stay in L2. */
static const size_t b_block_floats = 64 * 1024;

static const fovea_conv_header *header_of(const void *packed) {
    const fovea_conv_header *h = packed;
    if (h == NULL || h->magic != FOVEA_CONV_MAGIC || h->isa >= FOVEA_ISA_COUNT) return NULL;
    if (h->precision == FOVEA_PRECISION_F32) return h;
    if (h->precision != FOVEA_PRECISION_BF16) return NULL;
    return fovea_bf16_gemm_config_with_mr((fovea_isa)h->isa, h->tile_rows) != NULL ? h : NULL;
}

/* The bf16 tile of bf16 weights (header_of checked that it exists). */
static const fovea_bf16_gemm_config *bf16_config_of(const fovea_conv_header *h) {
    return fovea_bf16_gemm_config_with_mr((fovea_isa)h->isa, h->tile_rows);
}

/* The bf16 tile weights of this shape are packed for now. */
static const fovea_bf16_gemm_config *bf16_config_for_packing(const fovea_conv2d_params *p) {
    return fovea_bf16_gemm_config_for_rows(fovea_bf16_gemm_config_active()->isa, p->output_channels / p->groups);
}

static size_t round_up(size_t value, size_t multiple) { return (value + multiple - 1) / multiple * multiple; }

static int is_bf16(const fovea_conv_header *h) { return h->precision == FOVEA_PRECISION_BF16; }

/* Floats of one group's bf16 A panels (two values per float, rounded up to 64 bytes). */
static size_t bf16_group_floats(const fovea_bf16_gemm_config *config, size_t gm, size_t k) {
    return round_up((fovea_bf16_gemm_packed_a_values(config->mr, gm, k, config->k_align) + 1) / 2, 16);
}

size_t fovea_conv2d_packed_size_precision(const fovea_conv2d_params *p, fovea_precision precision) {
    if (fovea_conv2d_check(p) != FOVEA_STATUS_OK) return 0;
    const size_t gm = p->output_channels / p->groups;
    const size_t k = p->channels / p->groups * p->kernel_height * p->kernel_width;
    size_t group_floats = 0;
    if (precision == FOVEA_PRECISION_F32) {
        const size_t mr = fovea_conv_weight_panel_rows(p, fovea_conv_config_active());
        group_floats = round_up(fovea_gemm_packed_a_floats(mr, gm, k), 16);
    } else if (precision == FOVEA_PRECISION_BF16) {
        group_floats = bf16_group_floats(bf16_config_for_packing(p), gm, k);
    } else {
        return 0;
    }
    return FOVEA_CONV_HEADER_BYTES + (group_floats * p->groups + p->output_channels) * sizeof(float);
}

size_t fovea_conv2d_packed_size(const fovea_conv2d_params *p) {
    return fovea_conv2d_packed_size_precision(p, FOVEA_PRECISION_F32);
}

/* bf16 weights: the active bf16 GEMM config's A panels; never pixel rows. */
static void pack_bf16(const fovea_conv2d_params *p, const float *weights, const float *bias, void *packed) {
    const fovea_bf16_gemm_config *config = bf16_config_for_packing(p);
    fovea_conv_header h = {0};
    h.magic = FOVEA_CONV_MAGIC;
    h.isa = (uint32_t)config->isa;
    h.has_bias = bias != NULL;
    h.precision = FOVEA_PRECISION_BF16;
    h.tile_rows = (uint32_t)config->mr;
    h.params = *p;
    h.group_outputs = p->output_channels / p->groups;
    h.reduction = p->channels / p->groups * p->kernel_height * p->kernel_width;
    h.group_floats = bf16_group_floats(config, h.group_outputs, h.reduction);
    float *panels = (float *)((char *)packed + FOVEA_CONV_HEADER_BYTES);
    for (size_t g = 0; g < p->groups; g++) {
        uint16_t *group = (uint16_t *)(void *)(panels + g * h.group_floats);
        const size_t values = fovea_bf16_gemm_packed_a_values(config->mr, h.group_outputs, h.reduction, config->k_align);
        config->pack_a(config->mr, h.group_outputs, h.reduction, weights + g * h.group_outputs * h.reduction,
                       h.reduction, 1, group);
        /* The odd value and the 64-byte rounding past the panels: zeros, not whatever the buffer held. */
        memset(group + values, 0, (h.group_floats * 2 - values) * sizeof(uint16_t));
    }
    float *packed_bias = panels + h.group_floats * p->groups;
    for (size_t m = 0; m < p->output_channels; m++) packed_bias[m] = bias != NULL ? bias[m] : 0.0f;
    memcpy(packed, &h, sizeof h);
}

fovea_status fovea_conv2d_pack_precision(const fovea_conv2d_params *p, fovea_precision precision,
                                         const float *weights, const float *bias, void *packed, size_t packed_bytes) {
    const fovea_status status = fovea_conv2d_check(p);
    if (status != FOVEA_STATUS_OK) return status;
    if (precision != FOVEA_PRECISION_F32 && precision != FOVEA_PRECISION_BF16) return FOVEA_STATUS_INVALID_PARAMETER;
    if (weights == NULL || packed == NULL) return FOVEA_STATUS_NULL_POINTER;
    if (packed_bytes < fovea_conv2d_packed_size_precision(p, precision)) return FOVEA_STATUS_BUFFER_TOO_SMALL;
    if (precision == FOVEA_PRECISION_BF16) {
        pack_bf16(p, weights, bias, packed);
        return FOVEA_STATUS_OK;
    }
    return fovea_conv2d_pack(p, weights, bias, packed, packed_bytes);
}

fovea_precision fovea_conv2d_packed_precision(const void *packed) {
    const fovea_conv_header *h = header_of(packed);
    return h != NULL ? (fovea_precision)h->precision : (fovea_precision)-1;
}

fovea_status fovea_conv2d_pack(const fovea_conv2d_params *p, const float *weights, const float *bias, void *packed,
                               size_t packed_bytes) {
    const fovea_status status = fovea_conv2d_check(p);
    if (status != FOVEA_STATUS_OK) return status;
    if (weights == NULL || packed == NULL) return FOVEA_STATUS_NULL_POINTER;
    if (packed_bytes < fovea_conv2d_packed_size(p)) return FOVEA_STATUS_BUFFER_TOO_SMALL;
    const fovea_conv_config *conv = fovea_conv_config_active();
    const size_t mr = fovea_conv_weight_panel_rows(p, conv);
    fovea_conv_header h = {0};
    h.magic = FOVEA_CONV_MAGIC;
    h.isa = (uint32_t)conv->isa;
    h.has_bias = bias != NULL;
    h.pixel_rows = (uint32_t)fovea_conv_uses_pixel_rows(p, conv);
    h.params = *p;
    h.group_outputs = p->output_channels / p->groups;
    h.reduction = p->channels / p->groups * p->kernel_height * p->kernel_width;
    h.group_floats = round_up(fovea_gemm_packed_a_floats(mr, h.group_outputs, h.reduction), 16);
    float *panels = (float *)((char *)packed + FOVEA_CONV_HEADER_BYTES);
    for (size_t g = 0; g < p->groups; g++) {
        fovea_gemm_pack_a(mr, h.group_outputs, h.reduction, weights + g * h.group_outputs * h.reduction,
                          h.reduction, 1, panels + g * h.group_floats);
    }
    float *packed_bias = panels + h.group_floats * p->groups;
    for (size_t m = 0; m < p->output_channels; m++) packed_bias[m] = bias != NULL ? bias[m] : 0.0f;
    memcpy(packed, &h, sizeof h);
    return FOVEA_STATUS_OK;
}

const char *fovea_conv2d_kernel_name(const void *packed) {
    const fovea_conv_header *h = header_of(packed);
    if (h == NULL) return NULL;
    if (is_bf16(h)) return bf16_config_of(h)->name;
    const fovea_conv_config *conv = fovea_conv_config_for((fovea_isa)h->isa);
    return h->pixel_rows ? conv->gemm_pixel_rows_name : conv->gemm->name;
}

/*
 * How a run splits its work. Column blocks split the panels of the merged
 * column range evenly (block b holds panels [P·b/B, P·(b+1)/B)), so no
 * thread is left with a last block of a few columns.
 */
typedef struct schedule {
    size_t columns;        /* per group: batch × output pixels */
    size_t panels;         /* column panels over those columns */
    size_t column_blocks;  /* per group */
    size_t block_panels;   /* panels of the largest column block */
    size_t row_chunks;     /* per column block */
    size_t row_panels;     /* per group */
    size_t units;
    size_t thread_floats;  /* workspace floats per thread */
} schedule;

/* The GEMM tile packed weights run: the fp32 or the bf16 config's. */
static void tile_of(const fovea_conv_header *h, size_t *mr, size_t *nr) {
    if (is_bf16(h)) {
        const fovea_bf16_gemm_config *config = bf16_config_of(h);
        *mr = config->mr;
        *nr = config->nr;
    } else {
        const fovea_gemm_config *config = fovea_gemm_config_for((fovea_isa)h->isa);
        *mr = config->mr;
        *nr = config->nr;
    }
}

/* The reduction of bf16 panels: K padded to the kernel's k_align. */
static size_t bf16_reduction(const fovea_conv_header *h) {
    return round_up(h->reduction, bf16_config_of(h)->k_align);
}

static schedule make_fp32_schedule(const fovea_conv_header *h, size_t threads) {
    const fovea_conv2d_params *p = &h->params;
    size_t mr = 0, nr = 0;
    tile_of(h, &mr, &nr);
    const size_t kc = h->reduction < k_block ? h->reduction : k_block;
    if (threads < 1) threads = 1;
    schedule s;
    s.columns = p->batch * p->output_height * p->output_width;
    s.panels = (s.columns + nr - 1) / nr;
    s.row_panels = (h->group_outputs + mr - 1) / mr;
    size_t most = b_block_floats / kc / nr; /* panels of packed B that stay in L2 */
    if (most < 1) most = 1;
    /*
     * A 1×1 layer whose weights outweigh its input (SqueezeNet's conv10: 2 MB
     * of weights, 346 KB of input) reads the input in place as one column
     * block, so the weights stream through the cache once, and threads split
     * the rows: 1.9 -> 1.6 ms at 1 thread on Zen 4.
     */
    const size_t input_floats = h->reduction * s.columns;
    if (fovea_conv_is_pointwise(p) && h->group_outputs * h->reduction > input_floats &&
        input_floats <= 2 * b_block_floats) {
        s.column_blocks = 1;
        s.block_panels = s.panels;
        s.row_chunks = threads > 1 ? 2 * threads : 1;
        if (s.row_chunks > s.row_panels) s.row_chunks = s.row_panels;
        s.units = p->groups * s.row_chunks;
        s.thread_floats = round_up(h->reduction * s.panels * nr, 16);
        return s;
    }
    size_t blocks = (s.panels + most - 1) / most;
    /*
     * More output channels than columns (ResNet-50's last stage: 512-2048
     * channels on 7×7 planes, 2-9 MB of weights): every column block streams
     * all the weights, so threads split rows, not columns, and one thread
     * never splits columns below the L2 budget. Measured on Zen 4, 1 thread,
     * busy machine (best of 15, two alternated rounds): 3×3 512->512 on 7×7
     * 3.5-3.7 -> 3.2-3.3 ms; 1024->2048 1×1 stride 2 3.0 -> 2.9-3.0 ms.
     */
    const int weight_heavy = h->group_outputs > s.columns;
    if (threads > 1 && !weight_heavy) {
        /* At least two units per thread when groups alone are too few, and a multiple of the threads. */
        const size_t wanted = (2 * threads + p->groups - 1) / p->groups;
        if (blocks < wanted) blocks = wanted;
        if (p->groups == 1) blocks = round_up(blocks, threads);
    }
    if (blocks > s.panels) blocks = s.panels;
    s.column_blocks = blocks;
    s.block_panels = (s.panels + blocks - 1) / blocks;
    const size_t base = p->groups * blocks;
    s.row_chunks = 1;
    if (threads > 1 && base < 2 * threads) {
        s.row_chunks = (2 * threads + base - 1) / base;
        if (s.row_chunks > s.row_panels) s.row_chunks = s.row_panels;
    }
    s.units = base * s.row_chunks;
    s.thread_floats = round_up(h->reduction * s.block_panels * nr, 16);
    return s;
}

/*
 * bf16 weights split the work as fp32 ones with their own tile; each thread's
 * slice then also holds its block converted to bf16 pairs, after the fp32 block.
 */
static schedule make_schedule(const fovea_conv_header *h, size_t threads) {
    schedule s = make_fp32_schedule(h, threads);
    if (is_bf16(h)) {
        size_t mr = 0, nr = 0;
        tile_of(h, &mr, &nr);
        s.thread_floats += round_up(bf16_reduction(h) * s.block_panels * nr / 2, 16);
    }
    return s;
}

size_t fovea_conv2d_workspace_size(const void *packed, size_t threads) {
    const fovea_conv_header *h = header_of(packed);
    if (h == NULL) return 0;
    if (threads < 1) threads = 1;
    if (h->pixel_rows) return fovea_conv2d_pixel_rows_workspace_floats(h) * sizeof(float);
    /* A run may use fewer threads (small jobs run on one), with larger blocks each: cover every count. */
    size_t largest = 0;
    for (size_t t = 1; t <= threads; t++) {
        const size_t floats = make_schedule(h, t).thread_floats * t;
        if (floats > largest) largest = floats;
    }
    return largest * sizeof(float);
}

/* What every unit of one run shares. */
typedef struct conv_run {
    const fovea_conv_header *h;
    const fovea_conv_config *conv;
    const fovea_gemm_config *config; /* conv->gemm */
    const fovea_bf16_gemm_config *bf16; /* bf16 weights: their kernel (else NULL) */
    schedule s;
    const float *panels;
    const float *bias;
    const float *x;
    float *y;
    size_t y_batch_stride;
    fovea_epilogue epilogue;
    int add; /* y holds a residual: every tile accumulates onto it */
    float *buffers; /* the workspace: s.thread_floats per thread */
} conv_run;

/*
 * One image of a fully connected layer (1×1 input, so B is one column):
 * a matrix-vector product over the packed row panels, which streams the
 * weights once instead of running MR×NR tiles with one useful column.
 */
static void gemv_panels(const conv_run *r, const float *a, const float *x, size_t panel_first, size_t panel_end,
                        size_t g, float *y) {
    const size_t mr = r->config->mr, k = r->h->reduction, gm = r->h->group_outputs;
    for (size_t ip = panel_first; ip < panel_end; ip++) {
        const float *panel = a + ip * mr * k;
        float acc[16] = {0};
        if (mr == 8) {
            for (size_t p = 0; p < k; p++)
                for (size_t i = 0; i < 8; i++) acc[i] += panel[p * 8 + i] * x[p];
        } else {
            for (size_t p = 0; p < k; p++)
                for (size_t i = 0; i < mr; i++) acc[i] += panel[p * mr + i] * x[p];
        }
        const size_t rows = gm - ip * mr < mr ? gm - ip * mr : mr;
        for (size_t i = 0; i < rows; i++) {
            const size_t m = ip * mr + i;
            const float start = r->add ? y[m] : 0.0f;
            y[m] = fovea_epilogue_apply(&r->epilogue, start + acc[i] + r->bias[g * gm + m]);
        }
    }
}

/* One column panel of the merged (image, pixel) columns. */
typedef struct column_panel {
    size_t image;    /* image of its first column */
    size_t pixel;    /* output pixel of its first column */
    size_t width;    /* valid columns (≤ nr) */
    int straddles;   /* its columns belong to more than one image */
} column_panel;

static column_panel column_panel_at(size_t column, size_t width, size_t image_columns) {
    column_panel c;
    c.image = column / image_columns;
    c.pixel = column % image_columns;
    c.width = width;
    c.straddles = c.pixel + width > image_columns;
    return c;
}

/*
 * Packs merged columns [column, column + width) of the 1×1 input (K rows of
 * each image's planes) into one K×nr panel, zeros past `width`: a panel
 * that straddles images or is ragged.
 */
static void pack_pointwise_panel(const conv_run *r, size_t g, size_t column, size_t width, size_t nr, float *panel) {
    const fovea_conv2d_params *p = &r->h->params;
    const size_t k = r->h->reduction, plane = p->input_height * p->input_width;
    const size_t group_channels = p->channels / p->groups;
    for (size_t done = 0; done < width;) {
        const size_t n = (column + done) / plane, q = (column + done) % plane;
        const size_t count = plane - q < width - done ? plane - q : width - done;
        const float *x = r->x + (n * p->channels + g * group_channels) * plane + q;
        for (size_t kk = 0; kk < k; kk++) memcpy(panel + kk * nr + done, x + kk * plane, count * sizeof(float));
        done += count;
    }
    if (width < nr)
        for (size_t kk = 0; kk < k; kk++) memset(panel + kk * nr + width, 0, (nr - width) * sizeof(float));
}

/*
 * A panel whose columns straddle images cannot be stored with one row
 * stride: it is computed over the whole reduction into a tile and scattered
 * (gathered first when y holds a residual). Such panels are at most one per
 * image boundary.
 */
static void run_straddling_panel(const conv_run *r, const float *a_panel, const float *b_panel, size_t rows,
                                 size_t row0, size_t g, size_t column, size_t width) {
    const fovea_conv2d_params *p = &r->h->params;
    const size_t nr = r->config->nr, gm = r->h->group_outputs, image_columns = p->output_height * p->output_width;
    float tile[16 * 64] __attribute__((aligned(64)));
    float *out[64];
    for (size_t j = 0; j < width; j++) {
        const size_t n = (column + j) / image_columns, q = (column + j) % image_columns;
        out[j] = r->y + n * r->y_batch_stride + (g * gm + row0) * image_columns + q;
    }
    if (r->add)
        for (size_t i = 0; i < rows; i++)
            for (size_t j = 0; j < width; j++) tile[i * nr + j] = out[j][i * image_columns];
    const fovea_gemm_config *narrow = r->config->narrow;
    if (narrow != NULL && width <= narrow->nr) {
        /* A fully connected layer's batch (8 columns) fits the narrow tile. */
        narrow->ukernel_ldb(rows, width, r->h->reduction, a_panel, b_panel, nr, tile, nr, r->bias + g * gm + row0,
                            r->add, &r->epilogue);
    } else {
        r->config->ukernel(rows, width, r->h->reduction, a_panel, b_panel, tile, nr, r->bias + g * gm + row0, r->add,
                           &r->epilogue);
    }
    for (size_t i = 0; i < rows; i++)
        for (size_t j = 0; j < width; j++) out[j][i * image_columns] = tile[i * nr + j];
}

/*
 * Packs merged columns [n0, n_end) of group g's B (1×1 input planes or
 * im2col) into column panels of nr at `b`, K×nr floats each. A 1×1 layer
 * packs only the panels its kernel cannot read in place (straddling or
 * ragged), or all of them with `pack_all`.
 */
static void pack_block(const conv_run *r, size_t g, size_t n0, size_t n_end, size_t nr, int pack_all, float *b) {
    const fovea_conv2d_params *p = &r->h->params;
    const size_t k = r->h->reduction, image_columns = p->output_height * p->output_width;
    const size_t group_channels = p->channels / p->groups, input_plane = p->input_height * p->input_width;
    if (fovea_conv_is_pointwise(p)) {
        for (size_t c0 = n0; c0 < n_end; c0 += nr) {
            const size_t width = n_end - c0 < nr ? n_end - c0 : nr;
            const column_panel cp = column_panel_at(c0, width, image_columns);
            if (pack_all || cp.straddles || width < nr) pack_pointwise_panel(r, g, c0, width, nr, b + (c0 - n0) * k);
        }
    } else {
        const float *x = r->x + g * group_channels * input_plane;
        const fovea_conv_config *conv = r->conv;
        if (conv->im2col_stride2_panels != NULL && fovea_im2col_stride2_panels_applies(p, nr))
            conv->im2col_stride2_panels(p, x, p->channels * input_plane, n0, n_end - n0, b);
        else if (conv->im2col_3x3s2_rows != NULL && fovea_im2col_3x3s2_rows_applies(p, nr))
            conv->im2col_3x3s2_rows(p, x, p->channels * input_plane, n0, n_end - n0, nr, b);
        else
            fovea_im2col_pack(p, x, p->channels * input_plane, n0, n_end - n0, nr, conv, b);
    }
}

/* Runs units [first, end) with `b` as this thread's packing buffer. */
static void run_units(const conv_run *r, size_t first, size_t end, float *b) {
    const fovea_conv2d_params *p = &r->h->params;
    const size_t mr = r->config->mr, nr = r->config->nr, k = r->h->reduction, gm = r->h->group_outputs;
    const size_t image_columns = p->output_height * p->output_width;
    const size_t group_channels = p->channels / p->groups;
    const size_t input_plane = p->input_height * p->input_width;
    /*
     * 1×1: full panels inside one image read the input planes in place. Measured on
     * Zen 4 against packing every block: 5-25% faster on SqueezeNet's 1×1 layers.
     */
    const int direct = fovea_conv_is_pointwise(p);
    const fovea_gemm_config *narrow = r->config->narrow;
    size_t packed_block = SIZE_MAX; /* the (group, column block) whose B is in `b` */
    for (size_t unit = first; unit < end; unit++) {
        const size_t chunk = unit % r->s.row_chunks;
        const size_t block_index = unit / r->s.row_chunks;
        const size_t column_block = block_index % r->s.column_blocks;
        const size_t g = block_index / r->s.column_blocks;
        const size_t first_panel = r->s.panels * column_block / r->s.column_blocks;
        const size_t end_panel = r->s.panels * (column_block + 1) / r->s.column_blocks;
        const size_t n0 = first_panel * nr;
        const size_t n_end = end_panel * nr < r->s.columns ? end_panel * nr : r->s.columns;
        const size_t panel_first = r->s.row_panels * chunk / r->s.row_chunks;
        const size_t panel_end = r->s.row_panels * (chunk + 1) / r->s.row_chunks;
        const float *a = r->panels + g * r->h->group_floats;
        if (direct && image_columns == 1 && p->batch == 1) {
            const float *x = r->x + g * group_channels;
            gemv_panels(r, a, x, panel_first, panel_end, g, r->y + g * gm);
            continue;
        }
        if (block_index != packed_block) {
            pack_block(r, g, n0, n_end, nr, 0, b);
            packed_block = block_index;
        }
        const size_t step = k_step(k);
        for (size_t k0 = 0; k0 < k; k0 += step) {
            const size_t kc = k - k0 < step ? k - k0 : step;
            const int first_block = k0 == 0, last_block = k0 + kc == k;
            const int accumulate = !first_block || r->add;
            for (size_t ip = panel_first; ip < panel_end; ip++) {
                const size_t rows = gm - ip * mr < mr ? gm - ip * mr : mr;
                const float *a_panel = a + ip * mr * k;
                const float *bias = first_block ? r->bias + g * gm + ip * mr : NULL;
                const fovea_epilogue *epilogue = last_block ? &r->epilogue : NULL;
                for (size_t c0 = n0; c0 < n_end; c0 += nr) {
                    const size_t width = n_end - c0 < nr ? n_end - c0 : nr;
                    const column_panel cp = column_panel_at(c0, width, image_columns);
                    const float *panel = b + (c0 - n0) * k;
                    if (cp.straddles) {
                        if (first_block) run_straddling_panel(r, a_panel, panel, rows, ip * mr, g, c0, width);
                        continue;
                    }
                    float *y_tile = r->y + cp.image * r->y_batch_stride + (g * gm + ip * mr) * image_columns + cp.pixel;
                    if (direct && width == nr) {
                        const float *x = r->x + (cp.image * p->channels + g * group_channels + k0) * input_plane + cp.pixel;
                        r->config->ukernel_strided(rows, kc, a_panel + k0 * mr, x, input_plane, y_tile, image_columns,
                                                   bias, accumulate, epilogue);
                    } else if (narrow != NULL && width <= narrow->nr) {
                        /* A ragged last panel: the narrow tile skips the empty half of the wide one. */
                        narrow->ukernel_ldb(rows, width, kc, a_panel + k0 * mr, panel + k0 * nr, nr, y_tile,
                                            image_columns, bias, accumulate, epilogue);
                    } else {
                        r->config->ukernel(rows, width, kc, a_panel + k0 * mr, panel + k0 * nr, y_tile, image_columns,
                                           bias, accumulate, epilogue);
                    }
                }
            }
        }
    }
}

/* The k-step of bf16 panels: fp32's split of the padded reduction, each step a multiple of k_align. */
static size_t bf16_k_step(size_t k_padded, size_t k_align) {
    const size_t blocks = (k_padded + k_block - 1) / k_block;
    return blocks > 0 ? round_up((k_padded + blocks - 1) / blocks, k_align) : k_padded;
}

/*
 * A straddling panel of bf16 weights (run_straddling_panel's scatter): the
 * whole padded reduction into a tile, then its columns to their images.
 */
static void run_straddling_panel_bf16(const conv_run *r, const uint16_t *a_panel, const uint16_t *b_panel,
                                      size_t rows, size_t row0, size_t g, size_t column, size_t width) {
    const fovea_conv2d_params *p = &r->h->params;
    const size_t nr = r->bf16->nr, gm = r->h->group_outputs, image_columns = p->output_height * p->output_width;
    float tile[32 * 64] __attribute__((aligned(64)));
    float *out[64];
    for (size_t j = 0; j < width; j++) {
        const size_t n = (column + j) / image_columns, q = (column + j) % image_columns;
        out[j] = r->y + n * r->y_batch_stride + (g * gm + row0) * image_columns + q;
    }
    if (r->add)
        for (size_t i = 0; i < rows; i++)
            for (size_t j = 0; j < width; j++) tile[i * nr + j] = out[j][i * image_columns];
    r->bf16->ukernel(rows, width, bf16_reduction(r->h), a_panel, b_panel, tile, nr, r->bias + g * gm + row0, r->add,
                     &r->epilogue);
    for (size_t i = 0; i < rows; i++)
        for (size_t j = 0; j < width; j++) out[j][i * image_columns] = tile[i * nr + j];
}

/*
 * run_units for bf16 weights: each block is packed by the fp32 packers,
 * converted once to bf16 pairs after the fp32 block in `b`, and multiplied
 * panel by panel. 1×1 panels that lie inside one image are converted straight
 * from the input planes (one pass instead of a copy then a conversion: the
 * pass that small-M layers, such as SqueezeNet's 64->16 squeeze, cannot
 * amortize). No matrix-vector path: a single column runs as a ragged panel.
 */
static void run_units_bf16(const conv_run *r, size_t first, size_t end, float *b) {
    const fovea_conv2d_params *p = &r->h->params;
    const fovea_bf16_gemm_config *config = r->bf16;
    const size_t mr = config->mr, nr = config->nr, k = r->h->reduction, gm = r->h->group_outputs;
    const size_t kp = bf16_reduction(r->h);
    const size_t image_columns = p->output_height * p->output_width;
    const size_t group_channels = p->channels / p->groups, input_plane = p->input_height * p->input_width;
    const int direct = fovea_conv_is_pointwise(p);
    uint16_t *pairs = (uint16_t *)(void *)(b + round_up(k * r->s.block_panels * nr, 16));
    size_t packed_block = SIZE_MAX;
    for (size_t unit = first; unit < end; unit++) {
        const size_t chunk = unit % r->s.row_chunks;
        const size_t block_index = unit / r->s.row_chunks;
        const size_t column_block = block_index % r->s.column_blocks;
        const size_t g = block_index / r->s.column_blocks;
        const size_t first_panel = r->s.panels * column_block / r->s.column_blocks;
        const size_t end_panel = r->s.panels * (column_block + 1) / r->s.column_blocks;
        const size_t n0 = first_panel * nr;
        const size_t n_end = end_panel * nr < r->s.columns ? end_panel * nr : r->s.columns;
        const size_t panel_first = r->s.row_panels * chunk / r->s.row_chunks;
        const size_t panel_end = r->s.row_panels * (chunk + 1) / r->s.row_chunks;
        const uint16_t *a = (const uint16_t *)(const void *)(r->panels + g * r->h->group_floats);
        if (block_index != packed_block) {
            pack_block(r, g, n0, n_end, nr, 0, b);
            for (size_t c0 = n0; c0 < n_end; c0 += nr) {
                const size_t width = n_end - c0 < nr ? n_end - c0 : nr;
                const column_panel cp = column_panel_at(c0, width, image_columns);
                if (direct && !cp.straddles && width == nr) {
                    const float *x = r->x + (cp.image * p->channels + g * group_channels) * input_plane + cp.pixel;
                    config->pack_b(nr, k, kp, x, input_plane, pairs + (c0 - n0) * kp);
                } else {
                    config->pack_b(nr, k, kp, b + (c0 - n0) * k, nr, pairs + (c0 - n0) * kp);
                }
            }
            packed_block = block_index;
        }
        const size_t step = bf16_k_step(kp, config->k_align);
        for (size_t k0 = 0; k0 < kp; k0 += step) {
            const size_t kc = kp - k0 < step ? kp - k0 : step;
            const int first_block = k0 == 0, last_block = k0 + kc == kp;
            const int accumulate = !first_block || r->add;
            for (size_t ip = panel_first; ip < panel_end; ip++) {
                const size_t rows = gm - ip * mr < mr ? gm - ip * mr : mr;
                const uint16_t *a_panel = a + ip * mr * kp;
                const float *bias = first_block ? r->bias + g * gm + ip * mr : NULL;
                const fovea_epilogue *epilogue = last_block ? &r->epilogue : NULL;
                for (size_t c0 = n0; c0 < n_end; c0 += nr) {
                    const size_t width = n_end - c0 < nr ? n_end - c0 : nr;
                    const column_panel cp = column_panel_at(c0, width, image_columns);
                    const uint16_t *panel = pairs + (c0 - n0) * kp;
                    if (cp.straddles) {
                        if (first_block) run_straddling_panel_bf16(r, a_panel, panel, rows, ip * mr, g, c0, width);
                        continue;
                    }
                    float *y_tile = r->y + cp.image * r->y_batch_stride + (g * gm + ip * mr) * image_columns + cp.pixel;
                    config->ukernel(rows, width, kc, a_panel + k0 * mr, panel + k0 * nr, y_tile, image_columns, bias,
                                    accumulate, epilogue);
                }
            }
        }
    }
}

/* fovea_conv2d_f32 and fovea_conv2d_add_f32: `add` starts every output tile from y's values. */
/* One thread's share of the units, with its own packing buffer. */
static void run_share(void *context, size_t tid, size_t count) {
    const conv_run *r = (const conv_run *)context;
    const size_t first = r->s.units * tid / count, end = r->s.units * (tid + 1) / count;
    float *b = r->buffers + tid * r->s.thread_floats;
    if (r->bf16 != NULL) {
        run_units_bf16(r, first, end, b);
        /* AMX: give the tile state back so context switches stop saving it (runtime/amx.h). */
        if (r->bf16->isa == FOVEA_ISA_AMX) fovea_amx_release();
    } else {
        run_units(r, first, end, b);
    }
}

static fovea_status conv2d_run(const fovea_conv2d_params *p, const void *packed, const float *x, float *y,
                               size_t y_batch_stride, const float *bias, const fovea_activation *activation,
                               void *workspace, size_t workspace_bytes, const fovea_threadpool *threadpool, int add) {
    fovea_status status = fovea_conv2d_check(p);
    if (status != FOVEA_STATUS_OK) return status;
    if (packed == NULL || x == NULL || y == NULL || workspace == NULL) return FOVEA_STATUS_NULL_POINTER;
    const fovea_conv_header *h = header_of(packed);
    if (h == NULL || memcmp(&h->params, p, sizeof *p) != 0) return FOVEA_STATUS_PACKING_MISMATCH;
    if (y_batch_stride < p->output_channels * p->output_height * p->output_width) return FOVEA_STATUS_INVALID_PARAMETER;
    if (workspace_bytes < fovea_conv2d_workspace_size(packed, fovea_pool_threads(threadpool))) {
        return FOVEA_STATUS_BUFFER_TOO_SMALL;
    }

    conv_run r;
    r.h = h;
    r.conv = fovea_conv_config_for((fovea_isa)h->isa);
    r.config = r.conv->gemm;
    r.bf16 = is_bf16(h) ? bf16_config_of(h) : NULL;
    r.panels = (const float *)((const char *)packed + FOVEA_CONV_HEADER_BYTES);
    r.bias = bias != NULL ? bias : r.panels + h->group_floats * p->groups;
    r.x = x;
    r.y = y;
    r.y_batch_stride = y_batch_stride;
    r.epilogue = fovea_epilogue_of(activation);
    r.add = add;
    const double work = (double)p->batch * (double)p->output_channels * (double)h->reduction *
                        (double)(p->output_height * p->output_width);
    const int t = fovea_threads_for(threadpool, work);
    if (h->pixel_rows) {
        fovea_conv2d_pixel_rows_run(h, r.panels, r.bias, x, y, y_batch_stride, &r.epilogue, add, workspace, threadpool,
                                    t);
        return FOVEA_STATUS_OK;
    }
    r.s = make_schedule(h, (size_t)t);
    r.buffers = workspace;
    fovea_parallel_run(threadpool, t, run_share, &r);
    return FOVEA_STATUS_OK;
}

fovea_status fovea_conv2d_f32(const fovea_conv2d_params *p, const void *packed, const float *x, float *y,
                              size_t y_batch_stride, const float *bias, const fovea_activation *activation,
                              void *workspace, size_t workspace_bytes, const fovea_threadpool *threadpool) {
    return conv2d_run(p, packed, x, y, y_batch_stride, bias, activation, workspace, workspace_bytes, threadpool, 0);
}

fovea_status fovea_conv2d_add_f32(const fovea_conv2d_params *p, const void *packed, const float *x, float *y,
                                  size_t y_batch_stride, const float *bias, const fovea_activation *activation,
                                  void *workspace, size_t workspace_bytes, const fovea_threadpool *threadpool) {
    return conv2d_run(p, packed, x, y, y_batch_stride, bias, activation, workspace, workspace_bytes, threadpool, 1);
}
