/*
 * fovea_winograd.h — Winograd convolution for 3×3 kernels (part of fovea_kernels.h).
 *
 * Same operation and layouts as fovea_conv2d_f32 (see fovea_conv.h), for the
 * convolutions with a 3×3 kernel, stride 1, dilation 1 and one group (any
 * pads, any input and output size, any batch). Output tiles of m×m (m = 2, 4
 * or 6: F(m×m, 3×3), Lavin & Gray) are computed as
 *
 *     Y = Aᵀ [ Σ_c (G g_{m,c} Gᵀ) ⊙ (Bᵀ d_c B) ] A
 *
 * with the interpolation points 0, ±1 (F2), 0, ±1, ±2 (F4) and 0, ±1, ±2, ±1/2
 * (F6), plus the point at infinity. The sum over input channels runs as (m+2)²
 * GEMMs on the tuned SGEMM microkernels, one per transform point.
 *
 * The weight transform runs once, in fovea_winograd_pack, into a buffer the
 * caller owns (sized by fovea_winograd_packed_size), for the ISA active at
 * packing time; a run uses that ISA's microkernel and transforms whatever the
 * ISA is later. Packed weights do not depend on the spatial sizes, batch or
 * pads: one packing serves every input size. Each run needs a workspace of
 * fovea_winograd_workspace_size bytes for the thread count it uses.
 *
 * Accuracy: Winograd trades multiplications for additions of transformed
 * values, so the result is not as exact as a direct convolution; the error
 * grows with the tile size. FOVEA_WINOGRAD_*_TOLERANCE bound the error
 * max|y − exact| / max|exact| measured on realistic data (inputs in [0, 1),
 * weights of standard deviation 1/sqrt(9·C), C up to 512), with headroom.
 * An infinite or NaN input value spoils every output of the tiles that read it
 * (an m×m block, plus neighbours sharing the two-pixel overlap), not only the
 * outputs whose windows contain it.
 */
/* Included before the guard, as fovea_conv.h does: fovea_conv2d_params comes first whatever is included first. */
#include "fovea_kernels.h"

#ifndef FOVEA_WINOGRAD_H
#define FOVEA_WINOGRAD_H

#ifdef __cplusplus
extern "C" {
#endif

/** The output tile: F(m×m, 3×3) with m = 2, 4 or 6. */
typedef enum fovea_winograd_tile {
    FOVEA_WINOGRAD_F2 = 2,
    FOVEA_WINOGRAD_F4 = 4,
    FOVEA_WINOGRAD_F6 = 6
} fovea_winograd_tile;

/*
 * Relative error bounds, max|y − exact| / max|exact| (exact: the convolution in
 * double, before the activation), on realistic data. Measured worst cases
 * (Kernels/tests/test_winograd.c prints them; scalar, AVX2 and AVX-512 alike,
 * C = 16 … 512): F2 8.5e-7, F4 7.4e-6, F6 1.9e-5; the im2col GEMM convolution
 * (fovea_conv2d_f32) gives 8.3e-7 on the same data. The bounds leave 4–5× headroom.
 */
#define FOVEA_WINOGRAD_F2_TOLERANCE 4e-6
#define FOVEA_WINOGRAD_F4_TOLERANCE 3e-5
#define FOVEA_WINOGRAD_F6_TOLERANCE 1e-4

/**
 * Bytes of packed weights for `tile` and the active ISA: a small header, the
 * (m+2)² transformed weight matrices in the microkernel's panel layout, and the
 * bias. 0 if the parameters are invalid, the convolution is not a 3×3 / stride 1 /
 * dilation 1 / one-group one, or `tile` is not 2, 4 or 6.
 */
size_t fovea_winograd_packed_size(const fovea_conv2d_params *params, fovea_winograd_tile tile);

/**
 * Transforms and packs `weights` (output_channels × channels × 3 × 3) and `bias`
 * (output_channels values, or NULL for none) into `packed` (`packed_bytes` from
 * fovea_winograd_packed_size), for the active ISA. Only the channel counts of
 * `params` are recorded; the spatial sizes, batch and pads may change between runs.
 *
 * Returns the status of fovea_conv2d_check, FOVEA_STATUS_INVALID_PARAMETER
 * (not 3×3 / stride 1 / dilation 1 / one group, or a tile other than 2, 4, 6),
 * FOVEA_STATUS_NULL_POINTER (weights or packed), FOVEA_STATUS_TOO_LARGE or
 * FOVEA_STATUS_BUFFER_TOO_SMALL; on error nothing is written.
 */
fovea_status fovea_winograd_pack(const fovea_conv2d_params *params, fovea_winograd_tile tile, const float *weights,
                                 const float *bias, void *packed, size_t packed_bytes);

/**
 * Workspace bytes a run on up to `threads` threads (0 counts as 1; more than
 * 1024 as 1024) needs: one block of transformed input tiles and one small
 * scratch per thread, plus 64 bytes for alignment. It depends on the channel
 * count, the tile and the ISA, not on the spatial size. 0 if `packed` is not
 * valid packed weights.
 */
size_t fovea_winograd_workspace_size(const void *packed, size_t threads);

/**
 * Runs the convolution, exactly as fovea_conv2d_f32: x is batch × channels ×
 * input_height × input_width (dense); image n of y starts at y + n·y_batch_stride
 * and holds output_channels dense planes of output_height × output_width
 * (y_batch_stride ≥ output_channels · output_height · output_width). `bias`
 * (output_channels values) overrides the packed bias when not NULL.
 * `activation` may be NULL (none). Runs on up to `threadpool->threads`
 * threads of the caller's pool (NULL, 0 or 1: the calling thread).
 * `workspace` needs fovea_winograd_workspace_size(packed, threadpool->threads)
 * bytes, any alignment.
 *
 * Returns, checked in this order: the status of fovea_conv2d_check;
 * FOVEA_STATUS_INVALID_PARAMETER (not 3×3 / stride 1 / dilation 1 / one group);
 * FOVEA_STATUS_NULL_POINTER (packed, x, y or workspace);
 * FOVEA_STATUS_PACKING_MISMATCH (`packed` is not packed Winograd weights, was
 * packed for other channel counts, or for an ISA this CPU lacks);
 * FOVEA_STATUS_INVALID_PARAMETER (y_batch_stride too small);
 * FOVEA_STATUS_TOO_LARGE; FOVEA_STATUS_BUFFER_TOO_SMALL (workspace).
 * On error nothing is written.
 */
fovea_status fovea_winograd_conv2d_f32(const fovea_conv2d_params *params, const void *packed, const float *x,
                                       float *y, size_t y_batch_stride, const float *bias,
                                       const fovea_activation *activation, void *workspace, size_t workspace_bytes,
                                       const fovea_threadpool *threadpool);

/**
 * What a packed buffer runs, such as "winograd_f4x4_3x3 f32_gemm_8x32_avx512";
 * NULL if `packed` is not valid packed Winograd weights. The string lives in
 * `packed` and is valid as long as it is.
 */
const char *fovea_winograd_kernel_name(const void *packed);

/** The tile size of a packed buffer (2, 4 or 6), or 0 if it is not valid packed Winograd weights. */
int fovea_winograd_packed_tile(const void *packed);

/* ------------------------------------------------------------------------ */
/* The transforms alone (benchmarks and tests)                              */
/* ------------------------------------------------------------------------ */

/*
 * fovea_winograd_conv2d_f32 walks the output tiles in blocks of NR tiles, NR
 * being the column count of the ISA's GEMM microkernel (fovea_gemm_microkernel_tile:
 * 8 scalar, 16 avx2, 32 avx512): per block it transforms the input patches of
 * every channel, runs (m+2)² microkernel products, and transforms the products
 * back. The two entry points below run one block's input or output transform
 * alone, with the ISA's own transform code, so benchmarks can time each step.
 * With α = m + 2 (4, 6 or 8), point ξ = i·α + j is element (i, j) of an α×α
 * transformed tile.
 *
 * The block's tiles lie side by side on one row of tiles, as the interior of an
 * image: `tiles` (1 ... NR) whole tiles, tile t reading the α×α input patch
 * whose top-left is column t·m and writing the m×m outputs whose top-left is
 * column t·m. Lanes t ≥ `tiles` of the block are empty (their transformed
 * values are 0; they have no outputs).
 *
 * `isa` is "scalar", "avx2", "avx512", or NULL for the ISA kernel calls use now
 * (fovea_kernels_isa_name()); fovea_kernels_set_isa does not matter otherwise.
 * Both run on the calling thread. Statuses, checked in this order:
 * FOVEA_STATUS_UNKNOWN_ISA, FOVEA_STATUS_UNSUPPORTED_ISA (as fovea_gemm.h);
 * FOVEA_STATUS_INVALID_PARAMETER (tile not 2, 4 or 6); FOVEA_STATUS_NULL_POINTER;
 * FOVEA_STATUS_INVALID_PARAMETER (a count 0, tiles > NR, a channel count above
 * FOVEA_KERNELS_MAX_EXTENT, a stride too small); FOVEA_STATUS_TOO_LARGE (the
 * buffers' byte sizes overflow). On error nothing is written.
 */

/**
 * Input transform of one block: V = Bᵀ d B of each channel's α×α patch d of
 * each tile.
 *
 * Reads x: patch element (row u, column k) of tile t in channel c at
 * x[c·x_channel_stride + u·x_row_stride + t·m + k], 0 ≤ u, k < α; requires
 * x_row_stride ≥ tiles·m + 2 and x_channel_stride ≥ α·x_row_stride, and x must
 * hold (channels − 1)·x_channel_stride + (α − 1)·x_row_stride + tiles·m + 2
 * floats (only the patches are read).
 *
 * Writes v in the GEMM's B-panel layout: point ξ of channel c in lane t at
 * v[ξ·v_point_stride + c·NR + t], for every lane t < NR (0 past `tiles`); the
 * floats between channels·NR and v_point_stride of each point are not written.
 * Requires v_point_stride ≥ channels·NR; v holds (α² − 1)·v_point_stride +
 * channels·NR floats. fovea_winograd_conv2d_f32 uses v_point_stride =
 * channels·NR + 16 (the extra cache line keeps one channel's α² stores out of
 * one cache set): pass the same to time what a convolution does.
 */
fovea_status fovea_winograd_input_transform_f32(const char *isa, fovea_winograd_tile tile, size_t channels,
                                                size_t tiles, const float *x, size_t x_row_stride,
                                                size_t x_channel_stride, float *v, size_t v_point_stride);

/**
 * Output transform of one block: Y = Aᵀ M A of each output channel's α×α
 * product M of each tile, plus bias[r] (when `bias` is not NULL), then the
 * activation (NULL: none), as fovea_winograd_conv2d_f32 finishes a tile.
 *
 * Reads s (the microkernels' results, as the convolution's scratch holds them):
 * point ξ of output channel r in lane t at s[(r·α² + ξ)·NR + t], for
 * r < output_channels; s holds output_channels·α²·NR floats (the lanes
 * t ≥ tiles may be read, their values do not matter).
 *
 * Writes output (row i, column j) of tile t in output channel r to
 * y[r·y_channel_stride + i·y_row_stride + t·m + j], 0 ≤ i, j < m, and nothing
 * else; requires y_row_stride ≥ tiles·m and y_channel_stride ≥ m·y_row_stride
 * (y holds (output_channels − 1)·y_channel_stride + (m − 1)·y_row_stride +
 * tiles·m floats).
 */
fovea_status fovea_winograd_output_transform_f32(const char *isa, fovea_winograd_tile tile, size_t output_channels,
                                                 size_t tiles, const float *s, const float *bias,
                                                 const fovea_activation *activation, float *y, size_t y_row_stride,
                                                 size_t y_channel_stride);

#ifdef __cplusplus
}
#endif

#endif /* FOVEA_WINOGRAD_H */
