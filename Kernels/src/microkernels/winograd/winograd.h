/*
 * Internal: Winograd F(m×m, 3×3) convolution (m = 2, 4, 6).
 *
 * A run walks the output tiles in blocks of NR tiles (the microkernel's column
 * count: one B panel per block). For a block:
 *
 *  1. input transform: for each input channel c and each of the block's tiles,
 *     V = Bᵀ d B of the (m+2)×(m+2) input patch d (zero outside the input), stored
 *     straight into B-panel layout, one panel per transform point ξ:
 *       v[ξ·point_stride + c·NR + lane], point_stride = C·NR + 16 (the extra
 *     cache line keeps the (m+2)² stores of one channel out of one cache set);
 *  2. for each row panel of MR output channels: (m+2)² microkernel calls
 *     M_ξ = U_ξ · V_ξ (kc = C) into the scratch s[(r·(m+2)² + ξ)·NR + lane]
 *     (row stride (m+2)²·NR, so the output transform of a row reads it in one run);
 *  3. output transform: Y = Aᵀ M A of each (channel, tile), plus bias, then the
 *     activation, written to the valid part of the tile only.
 *
 * The ISA variants (XNNPACK-style names fovea_winograd_f<m>_{input,output}__<isa>)
 * do steps 1 and 3; the scalar ones are the reference. Lanes are tiles: the
 * AVX2 and AVX-512 variants transform 8 or 16 tiles at once, gathering the
 * patch rows by loads and an in-register transpose.
 */
#ifndef FOVEA_KERNELS_WINOGRAD_H
#define FOVEA_KERNELS_WINOGRAD_H

#include "fovea_kernels.h"
#include "../gemm/gemm.h"
#include "../../runtime/runtime.h"

#include <stddef.h>
#include <stdint.h>

/* The largest transform size (F6: 8) and the most lanes a block has (NR). */
enum { FOVEA_WINOGRAD_MAX_ALPHA = 8, FOVEA_WINOGRAD_MAX_NR = 32, FOVEA_WINOGRAD_MAX_MR = 16 };

/*
 * Where one tile of a block reads and writes. Lanes past the block's last tile
 * have no valid rows or columns and no outputs (out_rows = out_cols = 0).
 */
typedef struct fovea_winograd_tile_info {
    /* Offset in x of the patch's first input element inside the input (row row_lo,
       column col_lo of the patch), for input channel 0; 0 when the patch is all padding. */
    size_t x_first;
    /* Offset in y of the tile's top-left output, for output channel 0. */
    size_t y_first;
    /* Patch rows [row_lo, row_hi) and columns [col_lo, col_hi) lie inside the input; empty when lo == hi. */
    uint8_t row_lo, row_hi, col_lo, col_hi;
    /* The tile's outputs inside y: out_rows × out_cols (at most m × m). */
    uint8_t out_rows, out_cols;
} fovea_winograd_tile_info;

/* What the transforms of one block need to know. */
typedef struct fovea_winograd_block {
    const fovea_winograd_tile_info *tiles; /* nr entries */
    size_t nr;                             /* lanes (tiles) per block: the B panel width */
    size_t channels;                       /* input channels C */
    size_t point_stride;                   /* floats between two points' B panels in v */
    size_t input_width;                    /* row stride of x */
    size_t input_plane;                    /* input_height · input_width: channel stride of x */
    size_t output_width;                   /* row stride of y */
    size_t output_plane;                   /* output_height · output_width: channel stride of y */
    size_t input_extent;                   /* floats from the start of each channel's plane that may be read */
} fovea_winograd_block;

/* The floats between two points' B panels: C·NR plus one cache line. */
static inline size_t fovea_winograd_point_stride(size_t channels, size_t nr) {
    return channels * nr + 16;
}

/*
 * Step 1: transforms every channel of the block's tiles from x (image data,
 * tiles[].x_first relative to x) into v (see above).
 */
typedef void (*fovea_winograd_input_fn)(const fovea_winograd_block *block, const float *x, float *v);

/*
 * Step 3: transforms `rows` output channels (r < rows ≤ MR) of the scratch s
 * (row r of point ξ at s[(r·(m+2)² + ξ)·nr]) into y (channel r at
 * y + r·output_plane, tiles[].y_first relative to it), adding bias[r] when
 * bias is not NULL, then the epilogue when not NULL.
 */
typedef void (*fovea_winograd_output_fn)(const fovea_winograd_block *block, const float *s, size_t rows,
                                         const float *bias, const fovea_epilogue *epilogue, float *y);

#define FOVEA_WINOGRAD_DECLARE(isa)                                                                              \
    void fovea_f32_winograd_input_f2__##isa(const fovea_winograd_block *block, const float *x, float *v);            \
    void fovea_f32_winograd_input_f4__##isa(const fovea_winograd_block *block, const float *x, float *v);            \
    void fovea_f32_winograd_input_f6__##isa(const fovea_winograd_block *block, const float *x, float *v);            \
    void fovea_f32_winograd_output_f2__##isa(const fovea_winograd_block *block, const float *s, size_t rows,         \
                                         const float *bias, const fovea_epilogue *epilogue, float *y);            \
    void fovea_f32_winograd_output_f4__##isa(const fovea_winograd_block *block, const float *s, size_t rows,         \
                                         const float *bias, const fovea_epilogue *epilogue, float *y);            \
    void fovea_f32_winograd_output_f6__##isa(const fovea_winograd_block *block, const float *s, size_t rows,         \
                                         const float *bias, const fovea_epilogue *epilogue, float *y);

FOVEA_WINOGRAD_DECLARE(scalar)
#if FOVEA_HAVE_X86_VARIANTS
FOVEA_WINOGRAD_DECLARE(avx2)
FOVEA_WINOGRAD_DECLARE(avx512)
#endif
#if FOVEA_HAVE_NEON_VARIANTS
FOVEA_WINOGRAD_DECLARE(neon)
#endif

/* 1 if an epilogue changes anything (an activation other than none). */
static inline int fovea_winograd_epilogue_active(const fovea_epilogue *e) {
    return e != NULL && (e->leaky || e->lo != -INFINITY || e->hi != INFINITY);
}

#endif
