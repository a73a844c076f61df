/*
 * The Winograd transforms alone (fovea_winograd_input_transform_f32 /
 * _output_transform_f32 in fovea_winograd.h): one block of whole tiles side by
 * side, through the same per-ISA transform functions fovea_winograd_conv2d_f32
 * runs (winograd.h), for benchmarks and tests.
 */
#include "../configs/config.h"

#include <stdint.h>
#include <string.h>

/*
 * What a block of `isa` runs: its microkernel's NR and its transforms (the
 * ISA's own when its vectors divide NR, else the scalar ones, as the
 * convolution chooses). Returns the status that refuses the name, if any.
 */
static fovea_status lookup(const char *isa, size_t *nr, const fovea_winograd_config **set) {
    size_t mr = 0;
    const fovea_status status = fovea_gemm_microkernel_tile(isa, &mr, nr);
    if (status != FOVEA_STATUS_OK) return status;
    const fovea_isa level = isa == NULL ? fovea_gemm_config_active()->isa : (fovea_isa)fovea_isa_level(isa);
    *set = fovea_winograd_config_for(level, *nr);
    return *nr <= FOVEA_WINOGRAD_MAX_NR ? FOVEA_STATUS_OK : FOVEA_STATUS_UNSUPPORTED_ISA;
}

static int tile_is_valid(fovea_winograd_tile tile) {
    return tile == FOVEA_WINOGRAD_F2 || tile == FOVEA_WINOGRAD_F4 || tile == FOVEA_WINOGRAD_F6;
}

/* a·b + c, or sets *overflow when it (as floats, in bytes) does not fit in the address space. */
static size_t extent(size_t a, size_t b, size_t c, int *overflow) {
    size_t n = 0, bytes = 0;
    if (__builtin_mul_overflow(a, b, &n) || __builtin_add_overflow(n, c, &n) ||
        __builtin_mul_overflow(n, sizeof(float), &bytes) || bytes > (size_t)PTRDIFF_MAX) {
        *overflow = 1;
    }
    return n;
}

/* The block description of `tiles` whole tiles side by side (lanes past them empty). */
static void describe(size_t m, size_t nr, size_t tiles, fovea_winograd_tile_info *info) {
    memset(info, 0, nr * sizeof *info);
    for (size_t t = 0; t < tiles; t++) {
        info[t].x_first = t * m;
        info[t].y_first = t * m;
        info[t].row_hi = info[t].col_hi = (uint8_t)(m + 2);
        info[t].out_rows = info[t].out_cols = (uint8_t)m;
    }
}

fovea_status fovea_winograd_input_transform_f32(const char *isa, fovea_winograd_tile tile, size_t channels,
                                                size_t tiles, const float *x, size_t x_row_stride,
                                                size_t x_channel_stride, float *v, size_t v_point_stride) {
    size_t nr = 0;
    const fovea_winograd_config *set = NULL;
    const fovea_status status = lookup(isa, &nr, &set);
    if (status != FOVEA_STATUS_OK) return status;
    if (!tile_is_valid(tile)) return FOVEA_STATUS_INVALID_PARAMETER;
    if (x == NULL || v == NULL) return FOVEA_STATUS_NULL_POINTER;
    const size_t m = (size_t)tile, alpha = m + 2;
    if (channels == 0 || channels > FOVEA_KERNELS_MAX_EXTENT || tiles == 0 || tiles > nr) {
        return FOVEA_STATUS_INVALID_PARAMETER;
    }
    int overflow = 0;
    const size_t row = extent(tiles, m, 2, &overflow);        /* floats of one patch row of the block */
    const size_t panel = extent(channels, nr, 0, &overflow);  /* floats of one point's B panel */
    if (overflow) return FOVEA_STATUS_TOO_LARGE;
    if (x_row_stride < row || x_channel_stride / alpha < x_row_stride || v_point_stride < panel) {
        return FOVEA_STATUS_INVALID_PARAMETER;
    }
    extent(channels - 1, x_channel_stride, extent(alpha - 1, x_row_stride, row, &overflow), &overflow);
    extent(alpha * alpha - 1, v_point_stride, panel, &overflow);
    if (overflow) return FOVEA_STATUS_TOO_LARGE;

    fovea_winograd_tile_info info[FOVEA_WINOGRAD_MAX_NR];
    describe(m, nr, tiles, info);
    /* The last channel's patch rows end at its last row's last tile. */
    const fovea_winograd_block block = {info, nr, channels, v_point_stride, x_row_stride, x_channel_stride, 0, 0,
                                        (alpha - 1) * x_row_stride + row};
    set->input[m / 2 - 1](&block, x, v);
    return FOVEA_STATUS_OK;
}

fovea_status fovea_winograd_output_transform_f32(const char *isa, fovea_winograd_tile tile, size_t output_channels,
                                                 size_t tiles, const float *s, const float *bias,
                                                 const fovea_activation *activation, float *y, size_t y_row_stride,
                                                 size_t y_channel_stride) {
    size_t nr = 0;
    const fovea_winograd_config *set = NULL;
    const fovea_status status = lookup(isa, &nr, &set);
    if (status != FOVEA_STATUS_OK) return status;
    if (!tile_is_valid(tile)) return FOVEA_STATUS_INVALID_PARAMETER;
    if (s == NULL || y == NULL) return FOVEA_STATUS_NULL_POINTER;
    const size_t m = (size_t)tile, alpha = m + 2;
    if (output_channels == 0 || output_channels > FOVEA_KERNELS_MAX_EXTENT || tiles == 0 || tiles > nr) {
        return FOVEA_STATUS_INVALID_PARAMETER;
    }
    int overflow = 0;
    const size_t row = extent(tiles, m, 0, &overflow); /* floats of one output row of the block */
    extent(output_channels, alpha * alpha * nr, 0, &overflow);
    if (overflow) return FOVEA_STATUS_TOO_LARGE;
    if (y_row_stride < row || y_channel_stride / m < y_row_stride) return FOVEA_STATUS_INVALID_PARAMETER;
    extent(output_channels - 1, y_channel_stride, extent(m - 1, y_row_stride, row, &overflow), &overflow);
    if (overflow) return FOVEA_STATUS_TOO_LARGE;

    fovea_winograd_tile_info info[FOVEA_WINOGRAD_MAX_NR];
    describe(m, nr, tiles, info);
    const fovea_winograd_block block = {info, nr, 0, 0, 0, 0, y_row_stride, y_channel_stride, 0};
    const fovea_epilogue epilogue = fovea_epilogue_of(activation);
    set->output[m / 2 - 1](&block, s, output_channels, bias,
                           fovea_winograd_epilogue_active(&epilogue) ? &epilogue : NULL, y);
    return FOVEA_STATUS_OK;
}
