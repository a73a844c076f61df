/*
 * fovea_matmul_f32: row-major C = A·B on the SGEMM microkernels (gemm.h),
 * with the roles of the convolutions swapped: the activations A are the
 * microkernel's row panels (packed per block at run time), the constant B its
 * column panels (packed once, over the whole k, so a k-range of a panel is
 * contiguous), so C comes out row-major, one token per row.
 *
 * Blocking: a k-block of 256 keeps a B panel (256×32 floats, 32 KB) in L1
 * while the row panels of a 256-row A block (256 KB) stream from L2; B is read
 * from memory once per 256 rows, so a transformer's weights stream through
 * the cache once per layer. Threads split the column panels; each packs A
 * itself (m·k copies against m·k·n/threads multiply-adds).
 */
#include "../configs/config.h"
#include "fovea_matmul.h"
#include "../runtime/parallel.h"

#include <stdint.h>
#include <string.h>

enum { k_block = 256, m_block = 256 };

#define MATMUL_MAGIC 0x4d4d5046u /* "FPMM" */

/*
 * The first 64 bytes of packed B. bf16 B (precision FOVEA_PRECISION_BF16) is
 * the bf16 GEMM config's B panels: NR columns of bf16 pairs over k padded to
 * its k_align ([k/2][NR][2], gemm-bf16.h), rounded from scale·B.
 */
typedef struct matmul_header {
    uint32_t magic;
    uint32_t isa;
    uint64_t k;
    uint64_t n;
    uint32_t precision; /* fovea_precision */
    uint32_t reserved;  /* 0 */
} matmul_header;

enum { header_floats = 16 };

static size_t panel_count(size_t n, size_t nr) { return (n + nr - 1) / nr; }

static size_t round_up(size_t value, size_t multiple) { return (value + multiple - 1) / multiple * multiple; }

size_t fovea_matmul_packed_b_floats_precision(size_t k, size_t n, fovea_precision precision) {
    if (k == 0 || n == 0 || k > FOVEA_KERNELS_MAX_EXTENT || n > FOVEA_KERNELS_MAX_EXTENT) return 0;
    size_t floats = 0;
    if (precision == FOVEA_PRECISION_F32) {
        const fovea_gemm_config *config = fovea_gemm_config_active();
        if (__builtin_mul_overflow(panel_count(n, config->nr) * config->nr, k, &floats)) return 0;
    } else if (precision == FOVEA_PRECISION_BF16) {
        const fovea_bf16_gemm_config *config = fovea_bf16_gemm_config_active();
        /* Two bf16 values per float; k padded to an even k_align, so every panel is whole floats. */
        if (__builtin_mul_overflow(panel_count(n, config->nr) * config->nr, round_up(k, config->k_align) / 2, &floats))
            return 0;
    } else {
        return 0;
    }
    if (floats > (size_t)PTRDIFF_MAX / sizeof(float) - header_floats) return 0;
    return header_floats + floats;
}

size_t fovea_matmul_packed_b_floats(size_t k, size_t n) {
    return fovea_matmul_packed_b_floats_precision(k, n, FOVEA_PRECISION_F32);
}

/* bf16 B: each panel's pairs straight from scale·B, rounded (convert.h), zeros past n and k. */
static void pack_b_bf16(const fovea_bf16_gemm_config *config, size_t k, size_t n, const float *b, size_t row_stride,
                        size_t column_stride, float scale, uint16_t *out) {
    const size_t nr = config->nr, kp = round_up(k, config->k_align);
    for (size_t j0 = 0; j0 < n; j0 += nr) {
        const size_t columns = n - j0 < nr ? n - j0 : nr;
        for (size_t p = 0; p < kp; p++) {
            for (size_t c = 0; c < nr; c++) {
                const float v = p < k && c < columns ? scale * b[p * row_stride + (j0 + c) * column_stride] : 0.0f;
                out[(p / 2) * nr * 2 + c * 2 + p % 2] = fovea_bf16_from_f32(v);
            }
        }
        out += kp * nr;
    }
}

fovea_status fovea_matmul_pack_b_precision(size_t k, size_t n, const float *b, size_t row_stride,
                                           size_t column_stride, float scale, fovea_precision precision,
                                           float *packed, size_t packed_floats) {
    if (precision == FOVEA_PRECISION_F32)
        return fovea_matmul_pack_b(k, n, b, row_stride, column_stride, scale, packed, packed_floats);
    if (b == NULL || packed == NULL) return FOVEA_STATUS_NULL_POINTER;
    const size_t needed = fovea_matmul_packed_b_floats_precision(k, n, precision);
    if (needed == 0 || row_stride == 0 || column_stride == 0) return FOVEA_STATUS_INVALID_PARAMETER;
    if (packed_floats < needed) return FOVEA_STATUS_BUFFER_TOO_SMALL;
    const fovea_bf16_gemm_config *config = fovea_bf16_gemm_config_active();
    matmul_header h = {MATMUL_MAGIC, (uint32_t)config->isa, k, n, FOVEA_PRECISION_BF16, 0};
    memset(packed, 0, header_floats * sizeof(float));
    memcpy(packed, &h, sizeof h);
    pack_b_bf16(config, k, n, b, row_stride, column_stride, scale, (uint16_t *)(void *)(packed + header_floats));
    return FOVEA_STATUS_OK;
}

fovea_status fovea_matmul_pack_b(size_t k, size_t n, const float *b, size_t row_stride, size_t column_stride,
                                 float scale, float *packed, size_t packed_floats) {
    if (b == NULL || packed == NULL) return FOVEA_STATUS_NULL_POINTER;
    const size_t needed = fovea_matmul_packed_b_floats(k, n);
    if (needed == 0 || row_stride == 0 || column_stride == 0) return FOVEA_STATUS_INVALID_PARAMETER;
    if (packed_floats < needed) return FOVEA_STATUS_BUFFER_TOO_SMALL;
    const fovea_gemm_config *config = fovea_gemm_config_active();
    const size_t nr = config->nr;
    matmul_header h = {MATMUL_MAGIC, (uint32_t)config->isa, k, n, FOVEA_PRECISION_F32, 0};
    memset(packed, 0, header_floats * sizeof(float));
    memcpy(packed, &h, sizeof h);
    float *out = packed + header_floats;
    for (size_t j0 = 0; j0 < n; j0 += nr) {
        const size_t columns = n - j0 < nr ? n - j0 : nr;
        for (size_t p = 0; p < k; p++) {
            const float *row = b + p * row_stride + j0 * column_stride;
            size_t c = 0;
            if (column_stride == 1) {
                for (; c < columns; c++) out[c] = scale * row[c];
            } else {
                for (; c < columns; c++) out[c] = scale * row[c * column_stride];
            }
            for (; c < nr; c++) out[c] = 0.0f;
            out += nr;
        }
    }
    return FOVEA_STATUS_OK;
}

/* The header of packed B, or NULL if it is not one. */
static const matmul_header *header_of(const float *packed_b) {
    const matmul_header *h = (const matmul_header *)(const void *)packed_b;
    if (h->magic != MATMUL_MAGIC || h->isa >= FOVEA_ISA_COUNT || h->k == 0 || h->n == 0) return NULL;
    if (h->precision != FOVEA_PRECISION_F32 && h->precision != FOVEA_PRECISION_BF16) return NULL;
    return h;
}

/* Workspace floats per thread: one packed A block. */
static size_t thread_floats(const fovea_gemm_config *config, size_t m, size_t k) {
    const size_t rows = m < m_block ? m : m_block;
    const size_t kc = k < k_block ? k : k_block;
    return (rows + config->mr - 1) / config->mr * config->mr * kc;
}

/* The same for bf16 B: one A block of bf16 pairs (k_block is a multiple of every k_align). */
static size_t bf16_thread_floats(const fovea_bf16_gemm_config *config, size_t m, size_t k) {
    const size_t rows = m < m_block ? m : m_block;
    const size_t kc = k < k_block ? k : k_block;
    return round_up(fovea_bf16_gemm_packed_a_values(config->mr, rows, kc, config->k_align) / 2, 16);
}

/* Workspace floats per thread of a run over packed B. */
static size_t run_thread_floats(const matmul_header *h, size_t m) {
    if (h->precision == FOVEA_PRECISION_BF16)
        return bf16_thread_floats(fovea_bf16_gemm_config_for((fovea_isa)h->isa), m, (size_t)h->k);
    return thread_floats(fovea_gemm_config_for((fovea_isa)h->isa), m, (size_t)h->k);
}

size_t fovea_matmul_workspace_floats(const float *packed_b, size_t m, size_t threads) {
    if (packed_b == NULL || m == 0) return 0;
    const matmul_header *h = header_of(packed_b);
    if (h == NULL) return 0;
    if (threads < 1) threads = 1;
    return run_thread_floats(h, m) * threads;
}

size_t fovea_matmul_workspace_bound_floats(size_t m, size_t k, size_t n, size_t threads) {
    if (m == 0 || k == 0 || n == 0 || m > FOVEA_KERNELS_MAX_EXTENT || k > FOVEA_KERNELS_MAX_EXTENT ||
        n > FOVEA_KERNELS_MAX_EXTENT)
        return 0;
    if (threads < 1) threads = 1;
    size_t most = 0;
    for (int isa = 0; isa < FOVEA_ISA_COUNT; isa++) {
        const fovea_gemm_config *config = fovea_gemm_config_for((fovea_isa)isa);
        double floats = header_floats + (double)(panel_count(n, config->nr) * config->nr) * (double)k +
                        (double)thread_floats(config, m, k) * (double)threads;
        if (floats > (double)(PTRDIFF_MAX / (ptrdiff_t)sizeof(float)) / 2) return 0;
        if ((size_t)floats > most) most = (size_t)floats;
    }
    return most;
}

typedef struct matmul_run {
    const fovea_gemm_config *config;
    const fovea_bf16_gemm_config *bf16; /* bf16 B: its kernel (config unused); else NULL */
    size_t m, k, n;
    const float *a;
    size_t lda;
    const float *panels;
    const float *bias;
    float *c;
    size_t ldc;
    fovea_epilogue epilogue;
    float *workspace;
    size_t thread_floats;
} matmul_run;

/*
 * run_share for bf16 B: the same blocking, with each A block rounded into
 * bf16 pair panels (k padded to k_align) and the bf16 tile.
 */
static void run_share_bf16(const matmul_run *r, size_t tid, size_t count) {
    const fovea_bf16_gemm_config *config = r->bf16;
    const size_t mr = config->mr, nr = config->nr, k = r->k, n = r->n, m = r->m;
    const size_t kp = round_up(k, config->k_align);
    const size_t panels = panel_count(n, nr);
    const size_t first = panels * tid / count, end = panels * (tid + 1) / count;
    if (first == end) return;
    const size_t c_begin = first * nr, c_end = end * nr < n ? end * nr : n;
    uint16_t *buffer = (uint16_t *)(void *)(r->workspace + tid * r->thread_floats);
    const uint16_t *b_panels = (const uint16_t *)(const void *)r->panels;
    if (r->bias != NULL) {
        for (size_t i = 0; i < m; i++) memcpy(r->c + i * r->ldc + c_begin, r->bias + c_begin, (c_end - c_begin) * sizeof(float));
    }
    for (size_t k0 = 0; k0 < k; k0 += k_block) {
        const size_t kc = k - k0 < k_block ? k - k0 : k_block;
        const size_t kc_padded = round_up(kc, config->k_align);
        const int accumulate = k0 > 0 || r->bias != NULL;
        const fovea_epilogue *epilogue = k0 + kc == k ? &r->epilogue : NULL;
        for (size_t m0 = 0; m0 < m; m0 += m_block) {
            const size_t mc = m - m0 < m_block ? m - m0 : m_block;
            config->pack_a(mr, mc, kc, r->a + m0 * r->lda + k0, r->lda, 1, buffer);
            for (size_t j = first; j < end; j++) {
                const size_t c0 = j * nr, width = n - c0 < nr ? n - c0 : nr;
                const uint16_t *b_panel = b_panels + j * kp * nr + k0 * nr;
                for (size_t i0 = 0; i0 < mc; i0 += mr) {
                    const size_t rows = mc - i0 < mr ? mc - i0 : mr;
                    config->ukernel(rows, width, kc_padded, buffer + i0 * kc_padded, b_panel,
                                    r->c + (m0 + i0) * r->ldc + c0, r->ldc, NULL, accumulate, epilogue);
                }
            }
        }
    }
}

static void run_share(void *context, size_t tid, size_t count) {
    const matmul_run *r = (const matmul_run *)context;
    if (r->bf16 != NULL) {
        run_share_bf16(r, tid, count);
        /* AMX: give the tile state back so context switches stop saving it (runtime/amx.h). */
        if (r->bf16->isa == FOVEA_ISA_AMX) fovea_amx_release();
        return;
    }
    const fovea_gemm_config *config = r->config;
    const fovea_gemm_config *narrow = config->narrow != NULL && config->narrow->ukernel_ldb != NULL ? config->narrow : NULL;
    const size_t mr = config->mr, nr = config->nr, k = r->k, n = r->n, m = r->m;
    const size_t panels = panel_count(n, nr);
    const size_t first = panels * tid / count, end = panels * (tid + 1) / count;
    if (first == end) return;
    const size_t c_begin = first * nr, c_end = end * nr < n ? end * nr : n;
    float *buffer = r->workspace + tid * r->thread_floats;
    if (r->bias != NULL) {
        for (size_t i = 0; i < m; i++) memcpy(r->c + i * r->ldc + c_begin, r->bias + c_begin, (c_end - c_begin) * sizeof(float));
    }
    for (size_t k0 = 0; k0 < k; k0 += k_block) {
        const size_t kc = k - k0 < k_block ? k - k0 : k_block;
        const int accumulate = k0 > 0 || r->bias != NULL;
        const fovea_epilogue *epilogue = k0 + kc == k ? &r->epilogue : NULL;
        for (size_t m0 = 0; m0 < m; m0 += m_block) {
            const size_t mc = m - m0 < m_block ? m - m0 : m_block;
            fovea_gemm_pack_a(mr, mc, kc, r->a + m0 * r->lda + k0, r->lda, 1, buffer);
            for (size_t j = first; j < end; j++) {
                const size_t c0 = j * nr, width = n - c0 < nr ? n - c0 : nr;
                const float *b_panel = r->panels + j * k * nr + k0 * nr;
                for (size_t i0 = 0; i0 < mc; i0 += mr) {
                    const size_t rows = mc - i0 < mr ? mc - i0 : mr;
                    const float *a_panel = buffer + i0 * kc;
                    float *tile = r->c + (m0 + i0) * r->ldc + c0;
                    if (narrow != NULL && width <= narrow->nr) {
                        /* A ragged last panel: the narrow tile skips the empty half of the wide one. */
                        narrow->ukernel_ldb(rows, width, kc, a_panel, b_panel, nr, tile, r->ldc, NULL, accumulate,
                                            epilogue);
                    } else {
                        config->ukernel(rows, width, kc, a_panel, b_panel, tile, r->ldc, NULL, accumulate, epilogue);
                    }
                }
            }
        }
    }
}

fovea_status fovea_matmul_f32(size_t m, const float *a, size_t lda, const float *packed_b, const float *bias, float *c,
                              size_t ldc, const fovea_activation *activation, float *workspace,
                              size_t workspace_floats, const fovea_threadpool *threadpool) {
    if (a == NULL || packed_b == NULL || c == NULL || workspace == NULL) return FOVEA_STATUS_NULL_POINTER;
    const matmul_header *h = header_of(packed_b);
    if (h == NULL) return FOVEA_STATUS_PACKING_MISMATCH;
    const size_t k = (size_t)h->k, n = (size_t)h->n;
    if (m == 0 || m > FOVEA_KERNELS_MAX_EXTENT || lda < k || ldc < n) return FOVEA_STATUS_INVALID_PARAMETER;
    const fovea_gemm_config *config = fovea_gemm_config_for((fovea_isa)h->isa);
    const fovea_bf16_gemm_config *bf16 =
        h->precision == FOVEA_PRECISION_BF16 ? fovea_bf16_gemm_config_for((fovea_isa)h->isa) : NULL;
    const int count = fovea_threads_for(threadpool, 2.0 * (double)m * (double)k * (double)n);
    const size_t per_thread = run_thread_floats(h, m);
    if (workspace_floats < per_thread * (size_t)count) return FOVEA_STATUS_BUFFER_TOO_SMALL;
    matmul_run r = {config, bf16, m, k, n, a, lda, packed_b + header_floats, bias, c, ldc,
                    fovea_epilogue_of(activation), workspace, per_thread};
    if (count <= 1) {
        run_share(&r, 0, 1);
    } else {
        fovea_parallel_run(threadpool, count, run_share, &r);
    }
    return FOVEA_STATUS_OK;
}
