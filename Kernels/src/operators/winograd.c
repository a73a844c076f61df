/*
 * The exported Winograd entry points: argument checks, the weight transform
 * and packing, and the run: tile blocks × output-channel chunks as work units,
 * spread over the caller's pool, each unit doing input transform → (m+2)² GEMM
 * microkernel calls per row panel → output transform (see winograd.h).
 */
#include "../configs/config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* ---- Packed weights ------------------------------------------------------------------ */

/*
 * The packed buffer: this header (read with memcpy: the buffer may be only
 * float-aligned), then at HEADER_BYTES the transformed weights, row panel
 * after row panel: panel i holds, for each point ξ, U_ξ's rows i·mr ..< i·mr+mr
 * packed by fovea_gemm_pack_a (C × mr floats), so a panel's (m+2)² matrices are
 * contiguous. Then output_channels floats of bias (zeros when there is none).
 */
typedef struct packed_header {
    uint32_t magic;
    uint32_t version;
    uint32_t tile; /* m: 2, 4 or 6 */
    uint32_t isa;  /* fovea_isa at packing time */
    uint64_t output_channels;
    uint64_t channels;
    uint64_t mr;
    uint64_t nr;
    uint64_t has_bias;
    uint64_t bytes; /* the whole packed size */
    char name[64];  /* "winograd_f4x4_3x3 f32_gemm_8x32_avx512" */
} packed_header;

enum { HEADER_BYTES = 128, WORKSPACE_ALIGN = 64, MAX_THREADS = 1024 };
_Static_assert(sizeof(packed_header) <= HEADER_BYTES, "the packed header outgrew its slot");

static const uint32_t packed_magic = 0x31475746u; /* "FWG1" */
static const uint32_t packed_version = 1;

/* ---- Checks ------------------------------------------------------------------------------ */

/* a·b·c·d, or sets *overflow if the byte count of that many floats does not fit in ptrdiff_t. */
static size_t float_count(size_t a, size_t b, size_t c, size_t d, int *overflow) {
    size_t n = 0, bytes = 0;
    if (__builtin_mul_overflow(a, b, &n) || __builtin_mul_overflow(n, c, &n) || __builtin_mul_overflow(n, d, &n) ||
        __builtin_mul_overflow(n, sizeof(float), &bytes) || bytes > (size_t)PTRDIFF_MAX) {
        *overflow = 1;
        return 0;
    }
    return n;
}

/* fovea_conv2d_check, then the shapes Winograd F(m×m, 3×3) handles. */
static fovea_status check_winograd_params(const fovea_conv2d_params *p) {
    const fovea_status status = fovea_conv2d_check(p);
    if (status != FOVEA_STATUS_OK) return status;
    if (p->kernel_height != 3 || p->kernel_width != 3 || p->stride_height != 1 || p->stride_width != 1 ||
        p->dilation_height != 1 || p->dilation_width != 1 || p->groups != 1) {
        return FOVEA_STATUS_INVALID_PARAMETER;
    }
    return FOVEA_STATUS_OK;
}

static int tile_is_valid(size_t tile) {
    return tile == 2 || tile == 4 || tile == 6;
}

/* Bytes of packed weights; 0 if they overflow. */
static size_t packed_bytes_for(size_t output_channels, size_t channels, size_t tile, const fovea_gemm_config *cfg) {
    const size_t points = (tile + 2) * (tile + 2);
    const size_t panels = output_channels / cfg->mr + (output_channels % cfg->mr != 0);
    int overflow = 0;
    const size_t weights = float_count(points, panels, cfg->mr, channels, &overflow);
    size_t bytes = 0;
    if (overflow || __builtin_mul_overflow(weights + output_channels, sizeof(float), &bytes) ||
        __builtin_add_overflow(bytes, (size_t)HEADER_BYTES, &bytes) || bytes > (size_t)PTRDIFF_MAX) {
        return 0;
    }
    return bytes;
}

/*
 * The microkernel for a shape: the ISA's main tile, or its narrow one when
 * blocks of the narrow width waste fewer tile slots (13×13 with F(4) is 16
 * tiles: one full 16-wide block instead of half of a 32-wide one) or when
 * the layer has so few tiles that more, smaller blocks are needed to share
 * it between threads.
 */
static const fovea_gemm_config *config_for_shape(const fovea_gemm_config *wide, const fovea_conv2d_params *p,
                                                 size_t tile) {
    const fovea_gemm_config *narrow = wide->narrow;
    if (narrow == NULL) return wide;
    const size_t tiles = p->batch * ((p->output_height + tile - 1) / tile) * ((p->output_width + tile - 1) / tile);
    const size_t padded_wide = (tiles + wide->nr - 1) / wide->nr * wide->nr;
    const size_t padded_narrow = (tiles + narrow->nr - 1) / narrow->nr * narrow->nr;
    return padded_narrow < padded_wide || tiles < 2 * wide->nr ? narrow : wide;
}

/* Reads and validates the header of packed weights; 0 if they are not usable here. */
static int read_header(const void *packed, packed_header *h) {
    if (packed == NULL) return 0;
    memcpy(h, packed, sizeof *h);
    if (h->magic != packed_magic || h->version != packed_version || !tile_is_valid(h->tile) ||
        h->isa >= FOVEA_ISA_COUNT || !fovea_kernels_isa_supported(fovea_isa_name((fovea_isa)h->isa))) {
        return 0;
    }
    const fovea_gemm_config *cfg = fovea_gemm_config_with_width((fovea_isa)h->isa, (size_t)h->nr);
    if (cfg == NULL || h->mr != cfg->mr || h->nr != cfg->nr || h->nr > FOVEA_WINOGRAD_MAX_NR || h->name[sizeof h->name - 1] != 0) {
        return 0;
    }
    const size_t bytes = packed_bytes_for((size_t)h->output_channels, (size_t)h->channels, h->tile, cfg);
    return bytes != 0 && bytes == h->bytes;
}

/* ---- Sizes and packing ----------------------------------------------------------------------- */

size_t fovea_winograd_packed_size(const fovea_conv2d_params *params, fovea_winograd_tile tile) {
    if (check_winograd_params(params) != FOVEA_STATUS_OK || !tile_is_valid((size_t)tile)) return 0;
    const fovea_gemm_config *cfg = config_for_shape(fovea_gemm_config_active(), params, (size_t)tile);
    if (cfg->nr > FOVEA_WINOGRAD_MAX_NR) return 0;
    return packed_bytes_for(params->output_channels, params->channels, (size_t)tile, cfg);
}

/* G of F(m, 3) (α × 3), in double: the kernel transform U = G g Gᵀ. */
static const double *kernel_transform(size_t tile) {
    static const double g2[4 * 3] = {1, 0, 0, 0.5, 0.5, 0.5, 0.5, -0.5, 0.5, 0, 0, 1};
    static const double g4[6 * 3] = {1.0 / 4,  0,        0,       -1.0 / 6, -1.0 / 6, -1.0 / 6,
                                     -1.0 / 6, 1.0 / 6,  -1.0 / 6, 1.0 / 24, 1.0 / 12, 1.0 / 6,
                                     1.0 / 24, -1.0 / 12, 1.0 / 6, 0,        0,        1};
    static const double g6[8 * 3] = {1,         0,          0,        -2.0 / 9,  -2.0 / 9,  -2.0 / 9,
                                     -2.0 / 9,  2.0 / 9,    -2.0 / 9, 1.0 / 90,  1.0 / 45,  2.0 / 45,
                                     1.0 / 90,  -1.0 / 45,  2.0 / 45, 32.0 / 45, 16.0 / 45, 8.0 / 45,
                                     32.0 / 45, -16.0 / 45, 8.0 / 45, 0,         0,         1};
    return tile == 2 ? g2 : tile == 4 ? g4 : g6;
}

/* U = G g Gᵀ of one 3×3 kernel g (row-major), α×α values into u (row-major, point ξ = row·α + column). */
static void transform_kernel(const double *gm, size_t alpha, const float *g, double *u) {
    double gg[FOVEA_WINOGRAD_MAX_ALPHA][3];
    for (size_t i = 0; i < alpha; i++) {
        for (size_t b = 0; b < 3; b++) {
            gg[i][b] = gm[i * 3] * g[b] + gm[i * 3 + 1] * g[3 + b] + gm[i * 3 + 2] * g[6 + b];
        }
    }
    for (size_t i = 0; i < alpha; i++) {
        for (size_t j = 0; j < alpha; j++) {
            u[i * alpha + j] = gg[i][0] * gm[j * 3] + gg[i][1] * gm[j * 3 + 1] + gg[i][2] * gm[j * 3 + 2];
        }
    }
}

fovea_status fovea_winograd_pack(const fovea_conv2d_params *params, fovea_winograd_tile tile, const float *weights,
                                 const float *bias, void *packed, size_t packed_bytes) {
    const fovea_status status = check_winograd_params(params);
    if (status != FOVEA_STATUS_OK) return status;
    if (!tile_is_valid((size_t)tile)) return FOVEA_STATUS_INVALID_PARAMETER;
    if (packed == NULL) return FOVEA_STATUS_NULL_POINTER;
    const size_t M = params->output_channels, C = params->channels;
    if (weights == NULL) return FOVEA_STATUS_NULL_POINTER;
    const fovea_gemm_config *cfg = config_for_shape(fovea_gemm_config_active(), params, (size_t)tile);
    if (cfg->nr > FOVEA_WINOGRAD_MAX_NR) return FOVEA_STATUS_INVALID_PARAMETER;
    const size_t bytes = packed_bytes_for(M, C, (size_t)tile, cfg);
    if (bytes == 0) return FOVEA_STATUS_TOO_LARGE;
    if (packed_bytes < bytes) return FOVEA_STATUS_BUFFER_TOO_SMALL;

    const size_t m = (size_t)tile, alpha = m + 2, points = alpha * alpha, mr = cfg->mr;
    const size_t panels = M / mr + (M % mr != 0);
    const double *gm = kernel_transform(m);
    unsigned char *base = (unsigned char *)packed;
    float *u = (float *)(base + HEADER_BYTES);

    /*
     * Panel by panel, a few channels at a time: transform the kernels into
     * chunk[ξ][row][channel], then pack each point's rows with fovea_gemm_pack_a
     * (a channel range of a panel is contiguous: panel + c0·mr).
     */
    enum { CHUNK_FLOATS = 8192 };
    float chunk[CHUNK_FLOATS];
    size_t kc = CHUNK_FLOATS / (points * mr);
    if (kc == 0) kc = 1; /* mr above 128: not a real microkernel */
    if (points * mr * kc > CHUNK_FLOATS) return FOVEA_STATUS_INVALID_PARAMETER;
    for (size_t panel = 0; panel < panels; panel++) {
        const size_t row0 = panel * mr, rows = M - row0 < mr ? M - row0 : mr;
        float *dst = u + panel * points * C * mr;
        for (size_t c0 = 0; c0 < C; c0 += kc) {
            const size_t cc = C - c0 < kc ? C - c0 : kc;
            for (size_t r = 0; r < rows; r++) {
                for (size_t c = 0; c < cc; c++) {
                    double ut[FOVEA_WINOGRAD_MAX_ALPHA * FOVEA_WINOGRAD_MAX_ALPHA];
                    transform_kernel(gm, alpha, weights + ((row0 + r) * C + c0 + c) * 9, ut);
                    for (size_t xi = 0; xi < points; xi++) chunk[(xi * rows + r) * cc + c] = (float)ut[xi];
                }
            }
            for (size_t xi = 0; xi < points; xi++) {
                fovea_gemm_pack_a(mr, rows, cc, chunk + xi * rows * cc, cc, 1, dst + xi * C * mr + c0 * mr);
            }
        }
    }
    float *packed_bias = u + panels * points * C * mr;
    for (size_t i = 0; i < M; i++) packed_bias[i] = bias != NULL ? bias[i] : 0.0f;

    packed_header h;
    memset(&h, 0, sizeof h);
    h.magic = packed_magic;
    h.version = packed_version;
    h.tile = (uint32_t)m;
    h.isa = (uint32_t)cfg->isa;
    h.output_channels = M;
    h.channels = C;
    h.mr = mr;
    h.nr = cfg->nr;
    h.has_bias = bias != NULL;
    h.bytes = bytes;
    snprintf(h.name, sizeof h.name, "winograd_f%zux%zu_3x3 %s", m, m, cfg->name);
    memset(base, 0, HEADER_BYTES);
    memcpy(base, &h, sizeof h);
    return FOVEA_STATUS_OK;
}

const char *fovea_winograd_kernel_name(const void *packed) {
    packed_header h;
    if (!read_header(packed, &h)) return NULL;
    return (const char *)packed + offsetof(packed_header, name);
}

int fovea_winograd_packed_tile(const void *packed) {
    packed_header h;
    return read_header(packed, &h) ? (int)h.tile : 0;
}

/* ---- Workspace ------------------------------------------------------------------------------------ */

static size_t round_up(size_t bytes) {
    return (bytes + WORKSPACE_ALIGN - 1) / WORKSPACE_ALIGN * WORKSPACE_ALIGN;
}

/* Bytes of one thread's slice: transformed input block, GEMM scratch, tile table. 0 on overflow. */
static size_t thread_slice_bytes(const packed_header *h) {
    const size_t points = (size_t)(h->tile + 2) * (h->tile + 2);
    int overflow = 0;
    const size_t per_point = float_count((size_t)h->channels, (size_t)h->nr, 1, 1, &overflow);
    const size_t v = float_count(points, per_point + 16, 1, 1, &overflow);
    const size_t s = float_count(points, (size_t)h->mr, (size_t)h->nr, 1, &overflow);
    if (overflow || v > (size_t)PTRDIFF_MAX / 8) return 0;
    return round_up(v * sizeof(float)) + round_up(s * sizeof(float)) +
           round_up((size_t)h->nr * sizeof(fovea_winograd_tile_info));
}

static size_t thread_slots(size_t threads) {
    return threads == 0 ? 1 : threads > MAX_THREADS ? MAX_THREADS : threads;
}

size_t fovea_winograd_workspace_size(const void *packed, size_t threads) {
    packed_header h;
    if (!read_header(packed, &h)) return 0;
    const size_t slice = thread_slice_bytes(&h);
    size_t bytes = 0;
    if (slice == 0 || __builtin_mul_overflow(slice, thread_slots(threads), &bytes) ||
        __builtin_add_overflow(bytes, (size_t)WORKSPACE_ALIGN, &bytes) || bytes > (size_t)PTRDIFF_MAX) {
        return 0;
    }
    return bytes;
}

/* ---- The run ------------------------------------------------------------------------------------------- */

typedef struct run_plan {
    const fovea_conv2d_params *p;
    const float *x;
    float *y;
    size_t y_batch_stride;
    const float *u;    /* packed transformed weights */
    const float *bias; /* NULL: none */
    const fovea_epilogue *epilogue;
    fovea_gemm_ukernel_fn ukernel;
    fovea_gemm_ukernel_prefetch_fn ukernel_prefetch; /* NULL: prefetch in a loop before each call */
    size_t a_lines; /* cache lines of one point's slice of a weight panel */
    fovea_winograd_input_fn input;
    fovea_winograd_output_fn output;
    size_t tile, alpha, points;
    size_t mr, nr, panels;
    size_t tiles_w, tiles_per_image, tiles;
    size_t blocks, chunks;
    int64_t rows_used, columns_used; /* input rows / columns any output reads: the rest counts as padding */
    size_t v_offset, s_offset, info_offset, slice;
} run_plan;

static size_t min_size(size_t a, size_t b) {
    return a < b ? a : b;
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi) {
    return v < lo ? lo : v > hi ? hi : v;
}

/* Where each lane of a block reads and writes. */
static void describe_block(const run_plan *plan, size_t block, fovea_winograd_tile_info *info) {
    const fovea_conv2d_params *p = plan->p;
    const int64_t m = (int64_t)plan->tile, alpha = (int64_t)plan->alpha;
    for (size_t j = 0; j < plan->nr; j++) {
        fovea_winograd_tile_info *t = &info[j];
        memset(t, 0, sizeof *t);
        const size_t index = block * plan->nr + j;
        if (index >= plan->tiles) continue;
        const size_t n = index / plan->tiles_per_image, rest = index % plan->tiles_per_image;
        const size_t ty = rest / plan->tiles_w, tx = rest % plan->tiles_w;
        const int64_t iy0 = (int64_t)ty * m - (int64_t)p->pad_top, ix0 = (int64_t)tx * m - (int64_t)p->pad_left;
        const int64_t row_lo = clamp64(-iy0, 0, alpha), row_hi = clamp64(plan->rows_used - iy0, 0, alpha);
        const int64_t col_lo = clamp64(-ix0, 0, alpha), col_hi = clamp64(plan->columns_used - ix0, 0, alpha);
        if (row_lo < row_hi && col_lo < col_hi) {
            t->row_lo = (uint8_t)row_lo;
            t->row_hi = (uint8_t)row_hi;
            t->col_lo = (uint8_t)col_lo;
            t->col_hi = (uint8_t)col_hi;
            t->x_first = n * p->channels * p->input_height * p->input_width +
                         (size_t)(iy0 + row_lo) * p->input_width + (size_t)(ix0 + col_lo);
        }
        t->y_first = n * plan->y_batch_stride + ty * plan->tile * p->output_width + tx * plan->tile;
        t->out_rows = (uint8_t)min_size(plan->tile, p->output_height - ty * plan->tile);
        t->out_cols = (uint8_t)min_size(plan->tile, p->output_width - tx * plan->tile);
    }
}

/*
 * One thread's share: work units [begin, end), unit = block · chunks + chunk.
 * A block's input transform is kept while consecutive units use it. With
 * shared_v (one block, transformed already by all threads together) the
 * units use it and transform nothing.
 */
static void run_units(const run_plan *plan, unsigned char *slice, size_t begin, size_t end, const float *shared_v) {
    const fovea_conv2d_params *p = plan->p;
    float *v = shared_v != NULL ? (float *)shared_v : (float *)(slice + plan->v_offset);
    float *s = (float *)(slice + plan->s_offset);
    fovea_winograd_tile_info *info = (fovea_winograd_tile_info *)(slice + plan->info_offset);
    const size_t C = p->channels, M = p->output_channels, mr = plan->mr, nr = plan->nr, points = plan->points;
    const size_t point_stride = fovea_winograd_point_stride(C, nr);
    const fovea_winograd_block blk = {info, nr, C, point_stride, p->input_width, p->input_height * p->input_width,
                                      p->output_width, p->output_height * p->output_width,
                                      p->input_height * p->input_width};
    size_t transformed = SIZE_MAX;
    for (size_t unit = begin; unit < end; unit++) {
        const size_t block = unit / plan->chunks, chunk = unit % plan->chunks;
        if (block != transformed) {
            describe_block(plan, block, info);
            if (shared_v == NULL) plan->input(&blk, plan->x, v);
            transformed = block;
        }
        const size_t first = chunk * plan->panels / plan->chunks, last = (chunk + 1) * plan->panels / plan->chunks;
        for (size_t panel = first; panel < last; panel++) {
            const size_t row0 = panel * mr, rows = min_size(mr, M - row0);
            const float *a = plan->u + panel * points * C * mr;
            /*
             * The transformed weights (4× the 3×3 kernels for F(4)) come from
             * memory on a thread's first block (later blocks find them in L2;
             * 13×13 planes have one block): there each point's call first asks
             * for the same point's slice of the next panel, so that it arrives
             * while this panel computes. Zen 4, 1 thread, weights evicted from
             * L3: 64->256 on 13×13 0.47-0.54 -> 0.33-0.44 ms.
             */
            const float *next = block == begin / plan->chunks && panel + 1 < last ? a + points * C * mr : NULL;
            for (size_t xi = 0; xi < points; xi++) {
                const float *ax = a + xi * C * mr, *bx = v + xi * point_stride;
                if (next != NULL && plan->ukernel_prefetch != NULL) {
                    plan->ukernel_prefetch(rows, nr, C, ax, bx, s + xi * nr, points * nr, NULL, 0, NULL,
                                           next + xi * C * mr, plan->a_lines);
                    continue;
                }
                if (next != NULL) {
                    const char *ahead = (const char *)(next + xi * C * mr);
                    for (size_t byte = 0; byte < C * mr * sizeof(float); byte += 64) __builtin_prefetch(ahead + byte, 0, 2);
                }
                plan->ukernel(rows, nr, C, ax, bx, s + xi * nr, points * nr, NULL, 0, NULL);
            }
            plan->output(&blk, s, rows, plan->bias != NULL ? plan->bias + row0 : NULL, plan->epilogue,
                         plan->y + row0 * blk.output_plane);
        }
    }
}

static size_t gcd_size(size_t a, size_t b) {
    while (b != 0) {
        const size_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* One call's units, shared out by fovea_parallel_run (each thread with its workspace slice). */
typedef struct winograd_job {
    const run_plan *plan;
    unsigned char *slices;
    size_t units;
} winograd_job;

static void run_share(void *context, size_t id, size_t count) {
    const winograd_job *j = (const winograd_job *)context;
    run_units(j->plan, j->slices + id * j->plan->slice, j->units * id / count, j->units * (id + 1) / count, NULL);
}

/*
 * The one-block case (7×7, 13×13, 14×14 planes at batch 1) on several threads:
 * every thread would transform the whole block before its row panels, so
 * instead each transforms a share of the channels into thread 0's v first.
 */
static void transform_share(void *context, size_t id, size_t count) {
    const winograd_job *j = (const winograd_job *)context;
    const run_plan *plan = j->plan;
    const fovea_conv2d_params *p = plan->p;
    unsigned char *slice = j->slices + id * plan->slice;
    fovea_winograd_tile_info *info = (fovea_winograd_tile_info *)(slice + plan->info_offset);
    float *v = (float *)(j->slices + plan->v_offset);
    const size_t C = p->channels, nr = plan->nr, c0 = C * id / count, c1 = C * (id + 1) / count;
    if (c0 == c1) return;
    describe_block(plan, 0, info);
    const fovea_winograd_block blk = {info, nr, c1 - c0, fovea_winograd_point_stride(C, nr), p->input_width,
                                      p->input_height * p->input_width, p->output_width,
                                      p->output_height * p->output_width, p->input_height * p->input_width};
    plan->input(&blk, plan->x + c0 * blk.input_plane, v + c0 * nr);
}

static void gemm_share(void *context, size_t id, size_t count) {
    const winograd_job *j = (const winograd_job *)context;
    run_units(j->plan, j->slices + id * j->plan->slice, j->units * id / count, j->units * (id + 1) / count,
              (const float *)(j->slices + j->plan->v_offset));
}

fovea_status fovea_winograd_conv2d_f32(const fovea_conv2d_params *params, const void *packed, const float *x,
                                       float *y, size_t y_batch_stride, const float *bias,
                                       const fovea_activation *activation, void *workspace, size_t workspace_bytes,
                                       const fovea_threadpool *threadpool) {
    const fovea_status status = check_winograd_params(params);
    if (status != FOVEA_STATUS_OK) return status;
    if (packed == NULL || x == NULL || y == NULL || workspace == NULL) return FOVEA_STATUS_NULL_POINTER;
    packed_header h;
    if (!read_header(packed, &h) || h.output_channels != params->output_channels || h.channels != params->channels) {
        return FOVEA_STATUS_PACKING_MISMATCH;
    }
    const fovea_conv2d_params *p = params;
    const size_t M = p->output_channels, C = p->channels;
    const size_t out_plane = p->output_height * p->output_width, image_out = M * out_plane;
    if (y_batch_stride < image_out) return FOVEA_STATUS_INVALID_PARAMETER;
    size_t y_extent = 0;
    if (__builtin_mul_overflow(p->batch - 1, y_batch_stride, &y_extent) ||
        __builtin_add_overflow(y_extent, image_out, &y_extent) || y_extent > (size_t)PTRDIFF_MAX / sizeof(float)) {
        return FOVEA_STATUS_TOO_LARGE;
    }
    const size_t needed = fovea_winograd_workspace_size(packed, fovea_pool_threads(threadpool));
    if (needed == 0) return FOVEA_STATUS_TOO_LARGE;
    if (workspace_bytes < needed) return FOVEA_STATUS_BUFFER_TOO_SMALL;

    const fovea_isa isa = (fovea_isa)h.isa;
    const fovea_gemm_config *cfg = fovea_gemm_config_with_width(isa, (size_t)h.nr); /* read_header checked it */
    const fovea_winograd_config *set = fovea_winograd_config_for(isa, cfg->nr);
    const size_t tile = h.tile, which = tile / 2 - 1;
    const fovea_epilogue epilogue = fovea_epilogue_of(activation);

    run_plan plan;
    memset(&plan, 0, sizeof plan);
    plan.p = p;
    plan.x = x;
    plan.y = y;
    plan.y_batch_stride = y_batch_stride;
    plan.u = (const float *)((const unsigned char *)packed + HEADER_BYTES);
    plan.tile = tile;
    plan.alpha = tile + 2;
    plan.points = plan.alpha * plan.alpha;
    plan.mr = cfg->mr;
    plan.nr = cfg->nr;
    plan.panels = M / plan.mr + (M % plan.mr != 0);
    const float *packed_bias = plan.u + plan.panels * plan.points * C * plan.mr;
    plan.bias = bias != NULL ? bias : h.has_bias ? packed_bias : NULL;
    plan.epilogue = fovea_winograd_epilogue_active(&epilogue) ? &epilogue : NULL;
    plan.ukernel = cfg->ukernel;
    /* The microkernel prefetches one line per k, so it covers a point's slice only if that has no more lines than k values. */
    plan.a_lines = (C * plan.mr * sizeof(float) + 63) / 64;
    plan.ukernel_prefetch = plan.a_lines <= C ? cfg->ukernel_prefetch : NULL;
    plan.input = set->input[which];
    plan.output = set->output[which];
    plan.tiles_w = (p->output_width + tile - 1) / tile;
    plan.tiles_per_image = (p->output_height + tile - 1) / tile * plan.tiles_w;
    plan.tiles = p->batch * plan.tiles_per_image;
    plan.blocks = (plan.tiles + plan.nr - 1) / plan.nr;
    /* Output row oh reads input rows oh − pad_top ... oh − pad_top + 2. */
    plan.rows_used = clamp64((int64_t)p->output_height + 2 - (int64_t)p->pad_top, 0, (int64_t)p->input_height);
    plan.columns_used = clamp64((int64_t)p->output_width + 2 - (int64_t)p->pad_left, 0, (int64_t)p->input_width);
    plan.slice = thread_slice_bytes(&h);
    plan.v_offset = 0;
    plan.s_offset = round_up(plan.points * fovea_winograd_point_stride(C, plan.nr) * sizeof(float));
    plan.info_offset = plan.s_offset + round_up(plan.points * plan.mr * plan.nr * sizeof(float));

    /*
     * Work units: tile blocks × chunks of row panels. Few blocks (small
     * images) are split by output channels too, so that every thread gets
     * about the same number of microkernel calls.
     */
    const double work = 2.0 * (double)plan.points * (double)M * (double)C * (double)plan.nr * (double)plan.blocks;
    int t = fovea_threads_for(threadpool, work);
    if ((size_t)t > MAX_THREADS) t = MAX_THREADS; /* the workspace has no more slices */
    plan.chunks = 1;
    if (t > 1 && plan.blocks % (size_t)t != 0 && plan.blocks < 8 * (size_t)t) {
        plan.chunks = min_size((size_t)t / gcd_size(plan.blocks, (size_t)t), plan.panels);
    }
    const size_t units = plan.blocks * plan.chunks;
    if ((size_t)t > units) t = (int)units;

    unsigned char *slices = (unsigned char *)workspace;
    slices += (WORKSPACE_ALIGN - (uintptr_t)slices % WORKSPACE_ALIGN) % WORKSPACE_ALIGN;
    const winograd_job job = {&plan, slices, units};
    if (t > 1 && plan.blocks == 1) {
        fovea_parallel_run(threadpool, t, transform_share, (void *)&job);
        fovea_parallel_run(threadpool, t, gemm_share, (void *)&job);
    } else {
        fovea_parallel_run(threadpool, t, run_share, (void *)&job);
    }
    return FOVEA_STATUS_OK;
}
