/*
 * The 32×32 bf16 GEMM tile on AMX (contract and layouts: bf16-gemm-amx.h).
 *
 * Tiles (palette 1, all 16 rows × 64 bytes: fovea_amx_config_full_tiles):
 *   0-3  fp32 accumulators C00 C01 / C10 C11, 16×16 each;
 *   4-5  A rows 0-15 and 16-31 of one k-block: 16 rows × 32 bf16;
 *   6-7  B columns 0-15 and 16-31 of one k-block: 16 k-pairs × 16 columns × 2.
 * Per k-block of 32: 4 loads (2 KB), 4 TDPBF16PS (4 × 16·16·32 multiply-adds).
 * Each A and B tile feeds two products, as in oneDNN's and MLAS's 2×2 AMX
 * blocking; 4 independent accumulators cover the instruction's latency.
 *
 * After the k loop the accumulators go to a 32×32 fp32 buffer on the stack,
 * and an AVX-512 pass adds the old C, the bias and the epilogue and stores the
 * mr×nr part with masks: TILESTORED cannot mask columns or rows, and the
 * combine pass is small next to kc/32 × 4 tile products.
 *
 * tile_product and store_tile stay separate noinline functions on purpose:
 * GCC's _tile_loadd is an asm statement that does not declare the memory it
 * reads, and its _tile_loadconfig declares only 8 of the 64 bytes; a call
 * boundary (and a configuration in static storage) keeps every store to the
 * panels and the product buffer ordered around the tile instructions.
 */
#include "bf16-gemm-amx.h"

#if FOVEA_HAVE_X86_VARIANTS

#include "../../runtime/amx.h"
/* The AVX-512 bf16 tiles' row store (old C, bias, epilogue, masks), compiled for AMX's target. */
#define FOVEA_BF16_TARGET FOVEA_TARGET_AMX
#define FOVEA_BF16_DOT 1
#include "bf16-gemm-avx512.h"

#include <immintrin.h>

/* The k-blocks of both panels are 32·32 bf16 apart: 32 rows × 32 k of A, 16 pairs × 32 columns × 2 of B. */
enum { block_elements = 32 * 32 };

static FOVEA_TARGET_AMX __attribute__((noinline)) void tile_product(size_t kc, const uint16_t *a,
                                                                     const uint16_t *b, float product[32 * 32]) {
    fovea_amx_load_tile_config(&fovea_amx_config_full_tiles);
    _tile_zero(0);
    _tile_zero(1);
    _tile_zero(2);
    _tile_zero(3);
    for (size_t k = 0; k < kc; k += 32) {
        const uint16_t *a_block = a + k / 32 * block_elements;
        const uint16_t *b_block = b + k / 32 * block_elements;
        _tile_loadd(4, a_block, 32 * sizeof(uint16_t));           /* rows 0-15 */
        _tile_loadd(5, a_block + 16 * 32, 32 * sizeof(uint16_t)); /* rows 16-31 */
        _tile_loadd(6, b_block, 64 * sizeof(uint16_t));           /* columns 0-15 of each k-pair row */
        _tile_loadd(7, b_block + 16 * 2, 64 * sizeof(uint16_t));  /* columns 16-31 */
        _tile_dpbf16ps(0, 4, 6);
        _tile_dpbf16ps(1, 4, 7);
        _tile_dpbf16ps(2, 5, 6);
        _tile_dpbf16ps(3, 5, 7);
    }
    _tile_stored(0, product, 32 * sizeof(float));
    _tile_stored(1, product + 16, 32 * sizeof(float));
    _tile_stored(2, product + 16 * 32, 32 * sizeof(float));
    _tile_stored(3, product + 16 * 32 + 16, 32 * sizeof(float));
}

/* C = product (+ old C) (+ bias), epilogue; the mr×nr part only. */
static FOVEA_TARGET_AMX __attribute__((noinline)) void store_tile(size_t mr, size_t nr, const float *product, float *c,
                                                                   size_t ldc, const float *bias, int accumulate,
                                                                   const fovea_epilogue *epilogue) {
    const __mmask16 m0 = bf16_lanes(nr), m1 = nr > 16 ? bf16_lanes(nr - 16) : 0;
    for (size_t r = 0; r < mr; r++) {
        bf16_store_row(c + r * ldc, _mm512_loadu_ps(product + r * 32), _mm512_loadu_ps(product + r * 32 + 16), m0, m1,
                       accumulate, bias != NULL ? bias + r : NULL, epilogue);
    }
}

void fovea_bf16_gemm_32x32__amx(size_t mr, size_t nr, size_t kc, const uint16_t *a, const uint16_t *b, float *c,
                                size_t ldc, const float *bias, int accumulate, const fovea_epilogue *epilogue) {
    fovea_amx_require_permission("bf16_gemm_32x32_amx");
    float product[32 * 32] __attribute__((aligned(64)));
    tile_product(kc, a, b, product);
    store_tile(mr, nr, product, c, ldc, bias, accumulate, epilogue);
}

#endif
