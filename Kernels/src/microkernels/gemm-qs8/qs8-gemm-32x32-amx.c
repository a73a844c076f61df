/*
 * int8 GEMM tile on AMX-INT8 (tdpbusd): 32 channels × 32 pixels.
 *
 * TDPBUSD multiplies u8 rows of its first source by s8 columns of its second,
 * so the activations (u8) are the tile rows: the accumulators hold
 * C^T[pixel][channel], and the epilogue transposes while it requantizes.
 * Tiles (palette 1, all 16 rows × 64 bytes: fovea_amx_config_full_tiles):
 *   0-3  int32 sums, pixels 0-15 / 16-31 × channels 0-15 / 16-31;
 *   4-5  pixels 0-15 and 16-31 of one 64-k block: the B panel (b_kr 64) holds
 *        each pixel's 64 bytes in a row, so a tile is 16 rows at stride 64;
 *   6-7  channels 0-15 and 16-31 of that block: the A panel (a_kr 4) holds
 *        per k-quad 32 channels × 4 bytes, so a tile is 16 quads at stride 128.
 * Per 64-k block: 4 loads, 4 TDPBUSD of 16·16·64 multiply-adds.
 * Unrun on the machine it was written on (Zen 3, no AMX): its layout and
 * driver run through fovea_qs8_gemm__scalar ("qs8_gemm_32x32c64_scalar").
 * tile_product is noinline for the reason bf16-gemm-32x32-amx.c gives (GCC's
 * tile intrinsics do not declare the memory they read).
 */
#include "gemm-qs8.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

#include "../../runtime/amx.h"

static FOVEA_TARGET_AMX_INT8 __attribute__((noinline)) void tile_product(size_t k, const int8_t *a, const uint8_t *b,
                                                                          int32_t product[32 * 32]) {
    fovea_amx_load_tile_config(&fovea_amx_config_full_tiles);
    _tile_zero(0);
    _tile_zero(1);
    _tile_zero(2);
    _tile_zero(3);
    for (size_t g = 0; g < k / 64; g++) {
        const uint8_t *pixels = b + g * 32 * 64;
        const int8_t *weights = a + g * 16 * 32 * 4;
        _tile_loadd(4, pixels, 64);
        _tile_loadd(5, pixels + 16 * 64, 64);
        _tile_loadd(6, weights, 128);
        _tile_loadd(7, weights + 64, 128);
        _tile_dpbusd(0, 4, 6);
        _tile_dpbusd(1, 4, 7);
        _tile_dpbusd(2, 5, 6);
        _tile_dpbusd(3, 5, 7);
    }
    _tile_stored(0, product, 32 * sizeof(int32_t));
    _tile_stored(1, product + 16, 32 * sizeof(int32_t));
    _tile_stored(2, product + 16 * 32, 32 * sizeof(int32_t));
    _tile_stored(3, product + 16 * 32 + 16, 32 * sizeof(int32_t));
}

void fovea_qs8_gemm_32x32__amx(size_t mr, size_t nr, size_t k, const void *a, const uint8_t *b,
                               const fovea_qs8_requant *rq, uint8_t *c, size_t ldc,
                               const struct fovea_qs8_gemm_config *config) {
    (void)config;
    fovea_amx_require_permission("qs8_gemm_32x32_amx");
    int32_t product[32 * 32] __attribute__((aligned(64))); /* [pixel][channel] */
    tile_product(k, (const int8_t *)a, b, product);
    for (size_t m = 0; m < mr; m++) {
        for (size_t n = 0; n < nr; n++) c[m * ldc + n] = fovea_qs8_requantize(product[n * 32 + m], rq->bias[m], rq->scale[m], rq);
    }
}
#endif
