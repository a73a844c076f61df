/*
 * Internal: the one place that picks microkernels for an ISA (after
 * XNNPACK's src/configs). Per operator family a config struct holds the
 * microkernels and their tiles; configs/<family>-config.c fills one per ISA
 * and is the only code that asks which ISA runs (fovea_active_isa()). The
 * drivers in operators/ ask for a config and call what it holds; they never
 * name an ISA.
 *
 * `_active()` is the config of the ISA that runs now. It is looked up per
 * call, not fixed at start-up, so fovea_kernels_set_isa (which the tests use
 * to run every variant the CPU has) takes effect at the next call. `_for(isa)`
 * is the config of a given ISA: packed weights record the ISA they were packed
 * for and keep running its kernels whatever ISA is forced later.
 *
 * Adding a kernel: declare it in its family's header under microkernels/,
 * then put it in the family's table here. Adding an ISA: a level in
 * runtime/runtime.h (with its detection in runtime/isa.c) and a row in each
 * table. Rows a build has no code for (every ISA but scalar off x86) fall back
 * to scalar's row, and the fp32 tables run AVX-512's row on the levels above
 * it (avx512bf16, amx), which add only bf16 arithmetic (fovea_config_row).
 * The bf16 GEMM table (fovea_bf16_gemm_config) has a row of its own per level.
 */
#ifndef FOVEA_KERNELS_CONFIG_H
#define FOVEA_KERNELS_CONFIG_H

#include "../runtime/runtime.h"
#include "../microkernels/conv-smallc/conv-smallc.h"
#include "../microkernels/dwconv/dwconv.h"
#include "../microkernels/elementwise/elementwise.h"
#include "../microkernels/gemm/gemm.h"
#include "../microkernels/gemm-bf16/gemm-bf16.h"
#include "../microkernels/gemm-qs8/gemm-qs8.h"
#include "../microkernels/dwconv-qs8/dwconv-qs8.h"
#include "../microkernels/convert/convert.h"
#include "../microkernels/im2col/im2col.h"
#include "../microkernels/pool/pooling.h"
#include "../microkernels/softmax/softmax.h"
#include "../microkernels/winograd/winograd.h"

/*
 * The row of an fp32 table for an ISA: itself where this build has its code,
 * else scalar; AVX-512's for the bf16 levels above it (their fp32 code is AVX-512's).
 */
static inline fovea_isa fovea_config_row(fovea_isa isa) {
    if (!FOVEA_HAVE_X86_VARIANTS || (unsigned)isa > FOVEA_ISA_AMX) return FOVEA_ISA_SCALAR;
    return isa > FOVEA_ISA_AVX512 ? FOVEA_ISA_AVX512 : isa;
}

/*
 * The row of an fp32 table that has a NEON row (GEMM, convolution): NEON's on
 * an ARM64 build, else fovea_config_row's. The other tables run scalar's row
 * on NEON until they have NEON code.
 */
static inline fovea_isa fovea_config_row_with_neon(fovea_isa isa) {
    if (isa == FOVEA_ISA_NEON) return FOVEA_HAVE_NEON_VARIANTS ? FOVEA_ISA_NEON : FOVEA_ISA_SCALAR;
    return fovea_config_row(isa);
}

/* The row of a bf16 table (every x86 level has its own): itself where this build has its code, else scalar. */
static inline fovea_isa fovea_bf16_config_row(fovea_isa isa) {
    return FOVEA_HAVE_X86_VARIANTS && (unsigned)isa <= FOVEA_ISA_AMX ? isa : FOVEA_ISA_SCALAR;
}

/* ---- GEMM (every GEMM-shaped driver: convolution, Winograd, matmul) ---- */

/* One ISA's SGEMM microkernel and its tile. */
typedef struct fovea_gemm_config {
    fovea_isa isa;
    size_t mr;
    size_t nr;
    fovea_gemm_ukernel_fn ukernel;
    fovea_gemm_ukernel_strided_fn ukernel_strided;
    const char *name; /* "f32_gemm_8x32_avx512" */
    /* The same MR with a narrower tile for small blocks (NULL: none narrower). */
    const struct fovea_gemm_config *narrow;
    /* For a narrow config: its kernel with any B row stride. */
    fovea_gemm_ukernel_ldb_fn ukernel_ldb;
    /* The microkernel with interleaved prefetch (NULL: none). */
    fovea_gemm_ukernel_prefetch_fn ukernel_prefetch;
} fovea_gemm_config;

/* Indexed by fovea_isa (rows without code are empty: use fovea_gemm_config_for). */
extern const fovea_gemm_config fovea_gemm_configs[FOVEA_ISA_COUNT];

const fovea_gemm_config *fovea_gemm_config_active(void);
/* Never NULL: ISAs without a microkernel fall back to scalar's. */
const fovea_gemm_config *fovea_gemm_config_for(fovea_isa isa);
/* The ISA's config whose tile is nr columns wide (its main or narrow one), or NULL. */
const fovea_gemm_config *fovea_gemm_config_with_width(fovea_isa isa, size_t nr);

/* ---- bf16 GEMM (bf16-packed weights: bf16 products, fp32 accumulation) ---- */

typedef struct fovea_bf16_gemm_config {
    fovea_isa isa; /* recorded in packed weights */
    size_t mr;
    size_t nr;
    size_t k_align; /* k of A panels, B panels and every kernel call is a multiple */
    fovea_bf16_gemm_ukernel_fn ukernel;
    fovea_bf16_gemm_pack_a_fn pack_a;
    fovea_bf16_gemm_pack_b_fn pack_b;
    const char *name; /* "bf16_gemm_12x32_avx512bf16" */
    /* The same kernel body with fewer rows, for M it pads much less (NULL: none). */
    const struct fovea_bf16_gemm_config *fewer_rows;
} fovea_bf16_gemm_config;

const fovea_bf16_gemm_config *fovea_bf16_gemm_config_active(void);
/* Never NULL: off x86 every level runs scalar's. */
const fovea_bf16_gemm_config *fovea_bf16_gemm_config_for(fovea_isa isa);
/* The tile of `isa` for m rows of weights: its main one, or fewer_rows where that pads m by clearly less. */
const fovea_bf16_gemm_config *fovea_bf16_gemm_config_for_rows(fovea_isa isa, size_t m);
/* The tile of `isa` with `mr` rows (its main or fewer_rows one), or NULL. */
const fovea_bf16_gemm_config *fovea_bf16_gemm_config_with_mr(fovea_isa isa, size_t mr);

/* ---- int8 GEMM (u8 activations × s8 weights, requantized; fovea_qconv.h) ---- */

/*
 * One int8 kernel and its panel layout (microkernels/gemm-qs8/gemm-qs8.h).
 * The int8 kernels do not follow the ISA levels one to one: AVX-VNNI and
 * AVX512-VNNI are features a level may or may not have (Zen 4 has
 * AVX512-VNNI but no AVX-VNNI, Alder Lake AVX-VNNI but no AVX-512), so
 * gemm-qs8-config.c picks by level and feature (fovea_qconv2d_default_kernel).
 */
typedef struct fovea_qs8_gemm_config {
    const char *name; /* "qs8_gemm_6x16c2_avx2", recorded in packed weights by its index */
    size_t mr;
    size_t nr;
    size_t a_kr;    /* k per group in A panels */
    size_t b_kr;    /* k per group in B panels */
    size_t k_align; /* panel depth is a multiple: lcm(a_kr, b_kr) */
    int a_int16;    /* A values stored as int16 (else int8) */
    fovea_qs8_gemm_fn ukernel;
    int (*supported)(void); /* can this CPU and OS run it */
    fovea_qs8_gemm_pack_b_fn pack_b;
    int amx_tiles; /* the kernel configures AMX tiles: the driver releases them after each share */
    /*
     * The kernel multiplies signed activations (SDOT): B is packed as x ^ 0x80
     * (x − 128) and the packed bias gets + 128 · Σw, which gives the same sums.
     */
    int b_signed;
} fovea_qs8_gemm_config;

/* The i-th kernel this build has (NULL past the end); its index is what packed weights record. */
const fovea_qs8_gemm_config *fovea_qs8_gemm_config_at(size_t i);
/* The kernel named `name`, or NULL. */
const fovea_qs8_gemm_config *fovea_qs8_gemm_config_named(const char *name);
/* The kernel the active ISA level packs for (never NULL). */
const fovea_qs8_gemm_config *fovea_qs8_gemm_config_active(void);
/* The index of a config from the table (for packed headers). */
size_t fovea_qs8_gemm_config_index(const fovea_qs8_gemm_config *config);

/* ---- Depthwise int8 convolution (fovea_qdwconv2d_*) ---- */

typedef struct fovea_qs8_dwconv_config {
    fovea_qs8_dwconv_fn plane;
    const char *name;
} fovea_qs8_dwconv_config;

const fovea_qs8_dwconv_config *fovea_qs8_dwconv_config_active(void);

/* ---- fp32 <-> bf16 conversion ---- */

typedef struct fovea_convert_config {
    fovea_f32_to_bf16_fn f32_to_bf16;
    fovea_bf16_to_f32_fn bf16_to_f32;
} fovea_convert_config;

const fovea_convert_config *fovea_convert_config_active(void);
const fovea_convert_config *fovea_convert_config_for(fovea_isa isa);

/* ---- GEMM convolution: im2col packing and the pixel-rows tile ---- */

typedef struct fovea_conv_config {
    fovea_isa isa; /* recorded in packed weights */
    const fovea_gemm_config *gemm;
    fovea_gather_stride2_fn gather_stride2;
    fovea_gather_stride2_taps3_fn gather_stride2_taps3;
    /* Packers for the shapes their `_applies` predicate accepts (NULL: none on this ISA). */
    fovea_im2col_3x3s2_rows_fn im2col_3x3s2_rows;
    fovea_im2col_stride2_panels_fn im2col_stride2_panels;
    /* Small planes with pixels as the tile's rows (NULL: not on this ISA) and their stride-2 packer. */
    fovea_gemm_ukernel_transposed_fn gemm_pixel_rows;
    const char *gemm_pixel_rows_name;
    fovea_im2col_stride2_pixel_groups_fn im2col_stride2_pixel_groups;
} fovea_conv_config;

const fovea_conv_config *fovea_conv_config_active(void);
const fovea_conv_config *fovea_conv_config_for(fovea_isa isa);

/* ---- Winograd transforms ---- */

typedef struct fovea_winograd_config {
    size_t lanes; /* tiles per vector: a block's nr must be a multiple */
    fovea_winograd_input_fn input[3];   /* F2, F4, F6 */
    fovea_winograd_output_fn output[3];
} fovea_winograd_config;

/* The transforms for a block of nr tiles on an ISA: its own if its vectors divide nr, else scalar. */
const fovea_winograd_config *fovea_winograd_config_for(fovea_isa isa, size_t nr);

/* ---- Depthwise convolution ---- */

typedef enum fovea_dwconv_kind {
    FOVEA_DWCONV_3X3S1,
    FOVEA_DWCONV_3X3S2,
    FOVEA_DWCONV_5X5S1,
    FOVEA_DWCONV_5X5S2,
    FOVEA_DWCONV_7X7S1,
    FOVEA_DWCONV_7X7S2,
    FOVEA_DWCONV_KXK,
    FOVEA_DWCONV_KIND_COUNT
} fovea_dwconv_kind;

/* A kernel and its name ("dwconv_7x7s1_avx512"); a kind without its own code on an ISA runs k×k. */
typedef struct fovea_dwconv_ukernel {
    fovea_dwconv_fn run;
    const char *name;
} fovea_dwconv_ukernel;

typedef struct fovea_dwconv_config {
    fovea_dwconv_ukernel kinds[FOVEA_DWCONV_KIND_COUNT];
} fovea_dwconv_config;

const fovea_dwconv_config *fovea_dwconv_config_active(void);

/* ---- Direct small-channel convolution ---- */

typedef struct fovea_conv_smallc_config {
    fovea_conv_smallc_fn ukernel;
    const char *name; /* "f32_conv_smallc_8x48_avx512" */
} fovea_conv_smallc_config;

const fovea_conv_smallc_config *fovea_conv_smallc_config_active(void);

/* ---- Pooling ---- */

typedef struct fovea_pool_config {
    fovea_pool2d_plane_fn maxpool2d;
    fovea_pool2d_plane_fn avgpool2d;
    fovea_global_pool_plane_fn global_maxpool;
    fovea_global_pool_plane_fn global_avgpool;
} fovea_pool_config;

const fovea_pool_config *fovea_pool_config_active(void);

/* ---- Elementwise ---- */

typedef struct fovea_elementwise_config {
    fovea_activation_fn activation;
    fovea_sigmoid_fn sigmoid;
    fovea_unary_fn unary;
    fovea_layer_norm_fn layernorm_rows;
    fovea_binary_fn binary;
} fovea_elementwise_config;

const fovea_elementwise_config *fovea_elementwise_config_active(void);

/* ---- Softmax ---- */

typedef struct fovea_softmax_config {
    fovea_softmax_row_fn row;
    fovea_softmax_columns_fn columns;
} fovea_softmax_config;

const fovea_softmax_config *fovea_softmax_config_active(void);

#endif
