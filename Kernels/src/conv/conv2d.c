/*
 * The GEMM convolution: per (image, group), Y = A · B with A the packed
 * weights (M×K) and B the input planes (1×1) or im2col columns (K × OH·OW),
 * packed block by block into each thread's workspace slice.
 *
 * Work is split into units (image, group, column block, row chunk), row chunk
 * fastest, so a thread with consecutive units of one column block packs it
 * once. The parallel loop only hands each thread a contiguous range of units.
 */
#include "conv.h"

#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* Reduction depth per microkernel call: an A panel slice of 8×512 floats (16 KB) stays in L1. */
static const size_t k_block = 512;
/* Floats of one k-block × column block of packed B: 64 K floats (256 KB) stay in L2. */
static const size_t b_block_floats = 64 * 1024;

static const fovea_conv_header *header_of(const void *packed) {
    const fovea_conv_header *h = packed;
    return h != NULL && h->magic == FOVEA_CONV_MAGIC && h->isa < FOVEA_ISA_COUNT ? h : NULL;
}

static size_t round_up(size_t value, size_t multiple) { return (value + multiple - 1) / multiple * multiple; }

size_t fovea_conv2d_packed_size(const fovea_conv2d_params *p) {
    if (fovea_conv2d_check(p) != FOVEA_STATUS_OK) return 0;
    const fovea_gemm_config *config = fovea_gemm_config_for(fovea_active_isa());
    const size_t gm = p->output_channels / p->groups;
    const size_t k = p->channels / p->groups * p->kernel_height * p->kernel_width;
    const size_t group_floats = round_up(fovea_gemm_packed_a_floats(config->mr, gm, k), 16);
    return FOVEA_CONV_HEADER_BYTES + (group_floats * p->groups + p->output_channels) * sizeof(float);
}

fovea_status fovea_conv2d_pack(const fovea_conv2d_params *p, const float *weights, const float *bias, void *packed,
                               size_t packed_bytes) {
    const fovea_status status = fovea_conv2d_check(p);
    if (status != FOVEA_STATUS_OK) return status;
    if (weights == NULL || packed == NULL) return FOVEA_STATUS_NULL_POINTER;
    if (packed_bytes < fovea_conv2d_packed_size(p)) return FOVEA_STATUS_BUFFER_TOO_SMALL;
    const fovea_isa isa = fovea_active_isa();
    const fovea_gemm_config *config = fovea_gemm_config_for(isa);
    fovea_conv_header h = {0};
    h.magic = FOVEA_CONV_MAGIC;
    h.isa = (uint32_t)isa;
    h.has_bias = bias != NULL;
    h.params = *p;
    h.group_outputs = p->output_channels / p->groups;
    h.reduction = p->channels / p->groups * p->kernel_height * p->kernel_width;
    h.group_floats = round_up(fovea_gemm_packed_a_floats(config->mr, h.group_outputs, h.reduction), 16);
    float *panels = (float *)((char *)packed + FOVEA_CONV_HEADER_BYTES);
    for (size_t g = 0; g < p->groups; g++) {
        fovea_gemm_pack_a(config->mr, h.group_outputs, h.reduction, weights + g * h.group_outputs * h.reduction,
                          h.reduction, 1, panels + g * h.group_floats);
    }
    float *packed_bias = panels + h.group_floats * p->groups;
    for (size_t m = 0; m < p->output_channels; m++) packed_bias[m] = bias != NULL ? bias[m] : 0.0f;
    memcpy(packed, &h, sizeof h);
    return FOVEA_STATUS_OK;
}

const char *fovea_conv2d_kernel_name(const void *packed) {
    const fovea_conv_header *h = header_of(packed);
    return h ? fovea_gemm_config_for((fovea_isa)h->isa)->name : NULL;
}

/* How a run splits its work. */
typedef struct schedule {
    size_t column_block;   /* columns per block, a multiple of nr */
    size_t column_blocks;  /* per (image, group) */
    size_t row_chunks;     /* per column block */
    size_t row_panels;     /* per group */
    size_t units;
    size_t thread_floats;  /* workspace floats per thread */
} schedule;

static schedule make_schedule(const fovea_conv_header *h, size_t threads) {
    const fovea_gemm_config *config = fovea_gemm_config_for((fovea_isa)h->isa);
    const fovea_conv2d_params *p = &h->params;
    const size_t columns = p->output_height * p->output_width;
    const size_t kc = h->reduction < k_block ? h->reduction : k_block;
    schedule s;
    size_t block = b_block_floats / kc / config->nr * config->nr;
    if (block < config->nr) block = config->nr;
    const size_t images = p->batch * p->groups;
    if (threads < 1) threads = 1;
    /* At least two units per thread when images alone are too few. */
    const size_t wanted = (2 * threads + images - 1) / images;
    const size_t even = round_up((columns + wanted - 1) / wanted, config->nr);
    if (block > even) block = even;
    if (block > round_up(columns, config->nr)) block = round_up(columns, config->nr);
    s.column_block = block;
    s.column_blocks = (columns + block - 1) / block;
    s.row_panels = (h->group_outputs + config->mr - 1) / config->mr;
    const size_t base = images * s.column_blocks;
    s.row_chunks = 1;
    if (threads > 1 && base < 2 * threads) {
        s.row_chunks = (2 * threads + base - 1) / base;
        if (s.row_chunks > s.row_panels) s.row_chunks = s.row_panels;
    }
    /*
     * A 1×1 layer whose weights outweigh its input (SqueezeNet's conv10: 2 MB
     * of weights, 346 KB of input) reads the input in place as one column
     * block, so the weights stream through the cache once, and threads split
     * the rows: 1.9 -> 1.6 ms at 1 thread on Zen 4.
     */
    const size_t input_floats = h->reduction * columns;
    if (fovea_conv_is_pointwise(p) && h->group_outputs * h->reduction > input_floats &&
        input_floats <= 2 * b_block_floats) {
        s.column_block = round_up(columns, config->nr);
        s.column_blocks = 1;
        s.row_chunks = threads > 1 ? 2 * threads : 1;
        if (s.row_chunks > s.row_panels) s.row_chunks = s.row_panels;
        s.units = images * s.row_chunks;
        s.thread_floats = round_up(h->reduction * s.column_block, 16);
        return s;
    }
    s.units = base * s.row_chunks;
    s.thread_floats = round_up(h->reduction * block, 16);
    return s;
}

size_t fovea_conv2d_workspace_size(const void *packed, size_t threads) {
    const fovea_conv_header *h = header_of(packed);
    if (h == NULL) return 0;
    if (threads < 1) threads = 1;
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
    const fovea_gemm_config *config;
    schedule s;
    const float *panels;
    const float *bias;
    const float *x;
    float *y;
    size_t y_batch_stride;
    fovea_epilogue epilogue;
    int add; /* y holds a residual: every tile accumulates onto it */
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

/* Runs units [first, end) with `b` as this thread's packing buffer. */
static void run_units(const conv_run *r, size_t first, size_t end, float *b) {
    const fovea_conv2d_params *p = &r->h->params;
    const size_t mr = r->config->mr, nr = r->config->nr, k = r->h->reduction, gm = r->h->group_outputs;
    const size_t columns = p->output_height * p->output_width;
    const size_t group_channels = p->channels / p->groups;
    const size_t input_plane = p->input_height * p->input_width;
    const int pointwise = fovea_conv_is_pointwise(p);
    /*
     * 1×1: full panels read the input planes in place. Measured on Zen 4 against
     * packing every block: 5-25% faster on SqueezeNet's 1×1 layers, equal on conv10.
     */
    const int direct = pointwise;
    const fovea_gemm_config *narrow = r->config->narrow;
    size_t packed_block = SIZE_MAX; /* the (image, group, column block) whose B is in `b` */
    for (size_t unit = first; unit < end; unit++) {
        const size_t chunk = unit % r->s.row_chunks;
        const size_t block_index = unit / r->s.row_chunks;
        const size_t column_block = block_index % r->s.column_blocks;
        const size_t image_group = block_index / r->s.column_blocks;
        const size_t g = image_group % p->groups, n = image_group / p->groups;
        const size_t n0 = column_block * r->s.column_block;
        const size_t nc = columns - n0 < r->s.column_block ? columns - n0 : r->s.column_block;
        const float *x = r->x + (n * p->channels + g * group_channels) * input_plane;
        const size_t panel_first = r->s.row_panels * chunk / r->s.row_chunks;
        const size_t panel_end = r->s.row_panels * (chunk + 1) / r->s.row_chunks;
        const float *a = r->panels + g * r->h->group_floats;
        float *y = r->y + n * r->y_batch_stride + g * gm * columns + n0;
        if (pointwise && columns == 1) {
            gemv_panels(r, a, x, panel_first, panel_end, g, y);
            continue;
        }
        /* Direct: full panels read the input planes in place; only a ragged last panel is packed. */
        const size_t direct_columns = direct ? nc / nr * nr : 0;
        if (block_index != packed_block) {
            if (direct) {
                if (nc > direct_columns) fovea_gemm_pack_b(nr, k, nc - direct_columns, x + n0 + direct_columns, input_plane, b);
            } else {
                fovea_im2col_pack(p, x, n0, nc, nr, (fovea_isa)r->h->isa, b);
            }
            packed_block = block_index;
        }
        for (size_t k0 = 0; k0 < k; k0 += k_block) {
            const size_t kc = k - k0 < k_block ? k - k0 : k_block;
            const int first_block = k0 == 0, last_block = k0 + kc == k;
            const int accumulate = !first_block || r->add;
            for (size_t ip = panel_first; ip < panel_end; ip++) {
                const size_t rows = gm - ip * mr < mr ? gm - ip * mr : mr;
                const float *a_panel = a + ip * mr * k + k0 * mr;
                const float *bias = first_block ? r->bias + g * gm + ip * mr : NULL;
                const fovea_epilogue *epilogue = last_block ? &r->epilogue : NULL;
                float *y_rows = y + ip * mr * columns;
                for (size_t j0 = 0; j0 < direct_columns; j0 += nr) {
                    r->config->ukernel_strided(rows, kc, a_panel, x + k0 * input_plane + n0 + j0, input_plane,
                                               y_rows + j0, columns, bias, accumulate, epilogue);
                }
                const float *packed = b - direct_columns * k; /* panel j0 of the block is at b + (j0 - direct_columns)·k */
                for (size_t j0 = direct_columns; j0 < nc; j0 += nr) {
                    const size_t width = nc - j0 < nr ? nc - j0 : nr;
                    const float *panel = packed + j0 * k + k0 * nr;
                    if (narrow != NULL && width <= narrow->nr) {
                        /* A ragged last panel: the narrow tile skips the empty half of the wide one. */
                        narrow->ukernel_ldb(rows, width, kc, a_panel, panel, nr, y_rows + j0, columns, bias,
                                            accumulate, epilogue);
                    } else {
                        r->config->ukernel(rows, width, kc, a_panel, panel, y_rows + j0, columns, bias, accumulate,
                                           epilogue);
                    }
                }
            }
        }
    }
}

/* fovea_conv2d_f32 and fovea_conv2d_add_f32: `add` starts every output tile from y's values. */
static fovea_status conv2d_run(const fovea_conv2d_params *p, const void *packed, const float *x, float *y,
                               size_t y_batch_stride, const float *bias, const fovea_activation *activation,
                               void *workspace, size_t workspace_bytes, size_t threads, int add) {
    fovea_status status = fovea_conv2d_check(p);
    if (status != FOVEA_STATUS_OK) return status;
    if (packed == NULL || x == NULL || y == NULL || workspace == NULL) return FOVEA_STATUS_NULL_POINTER;
    const fovea_conv_header *h = header_of(packed);
    if (h == NULL || memcmp(&h->params, p, sizeof *p) != 0) return FOVEA_STATUS_PACKING_MISMATCH;
    if (y_batch_stride < p->output_channels * p->output_height * p->output_width) return FOVEA_STATUS_INVALID_PARAMETER;
    if (threads < 1) threads = 1;
    if (workspace_bytes < fovea_conv2d_workspace_size(packed, threads)) return FOVEA_STATUS_BUFFER_TOO_SMALL;

    conv_run r;
    r.h = h;
    r.config = fovea_gemm_config_for((fovea_isa)h->isa);
    r.panels = (const float *)((const char *)packed + FOVEA_CONV_HEADER_BYTES);
    r.bias = bias != NULL ? bias : r.panels + h->group_floats * p->groups;
    r.x = x;
    r.y = y;
    r.y_batch_stride = y_batch_stride;
    r.epilogue = fovea_epilogue_of(activation);
    r.add = add;
    const double work = (double)p->batch * (double)p->output_channels * (double)h->reduction *
                        (double)(p->output_height * p->output_width);
    const int t = fovea_threads_for(threads, work);
    r.s = make_schedule(h, (size_t)t);
    float *buffers = workspace;
#ifdef _OPENMP
#pragma omp parallel num_threads(t) if (t > 1)
    {
        const size_t tid = (size_t)omp_get_thread_num(), count = (size_t)omp_get_num_threads();
        run_units(&r, r.s.units * tid / count, r.s.units * (tid + 1) / count, buffers + tid * r.s.thread_floats);
    }
#else
    run_units(&r, 0, r.s.units, buffers);
#endif
    return FOVEA_STATUS_OK;
}

fovea_status fovea_conv2d_f32(const fovea_conv2d_params *p, const void *packed, const float *x, float *y,
                              size_t y_batch_stride, const float *bias, const fovea_activation *activation,
                              void *workspace, size_t workspace_bytes, size_t threads) {
    return conv2d_run(p, packed, x, y, y_batch_stride, bias, activation, workspace, workspace_bytes, threads, 0);
}

fovea_status fovea_conv2d_add_f32(const fovea_conv2d_params *p, const void *packed, const float *x, float *y,
                                  size_t y_batch_stride, const float *bias, const fovea_activation *activation,
                                  void *workspace, size_t workspace_bytes, size_t threads) {
    return conv2d_run(p, packed, x, y, y_batch_stride, bias, activation, workspace, workspace_bytes, threads, 1);
}
