/*
 * The AMX bf16 peak probe (fovea_peak.h): back-to-back TDPBF16PS on tiles that
 * stay in the tile registers, timed by fma-peak.c's loop (peak-timing.h), the
 * fastest block wins.
 *
 * A round is 4 products on 4 independent accumulators (tiles 0-3) from 2 A
 * and 2 B tiles (4-7) loaded once: the 2×2 blocking of the GEMM kernel
 * without its loads, so the figure is what the tile unit can do, and the
 * kernel's share of it says how well the loads are hidden. Each product is
 * 16×16 outputs × 32 multiply-adds = 16384 floating-point operations.
 *
 * Intrinsics, not assembly: tile instructions name their registers, so even
 * an unoptimized (-O0) build issues the same tile instructions; only the loop
 * counter around them costs more, which is small next to a TDPBF16PS.
 */
#include "amx.h"
#include "peak-timing.h"
#include "fovea_peak.h"

#include <stdint.h>

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

/* Operands: bf16 1/64 everywhere, so the sums grow slowly and stay far from overflow. */
static const uint16_t operand[16 * 32] __attribute__((aligned(64))) = {[0 ... 16 * 32 - 1] = 0x3C80};

static FOVEA_TARGET_AMX void load_operands(void) {
    fovea_amx_load_tile_config(&fovea_amx_config_full_tiles);
    _tile_zero(0);
    _tile_zero(1);
    _tile_zero(2);
    _tile_zero(3);
    _tile_loadd(4, operand, 64);
    _tile_loadd(5, operand, 64);
    _tile_loadd(6, operand, 64);
    _tile_loadd(7, operand, 64);
}

/* The probe's block (fovea_peak_block_fn); m and c are unused: the operands stay in the tiles. */
static FOVEA_TARGET_AMX void peak_block(size_t iterations, float m, float c) {
    (void)m;
    (void)c;
    for (size_t i = 0; i < iterations; i++) {
        _tile_dpbf16ps(0, 4, 6);
        _tile_dpbf16ps(1, 4, 7);
        _tile_dpbf16ps(2, 5, 6);
        _tile_dpbf16ps(3, 5, 7);
    }
}

double fovea_amx_bf16_peak_gflops(double seconds) {
    if (!fovea_amx_usable()) return 0.0;
    const double flops_per_iteration = 4.0 * 16 * 16 * 32 * 2;
    load_operands();
    const double best = fovea_peak_measure(peak_block, 64, flops_per_iteration, seconds);
    /* The probe's thread may never run AMX again: do not leave 8 KB of tile state to every context switch. */
    fovea_amx_release();
    return best;
}

#else

double fovea_amx_bf16_peak_gflops(double seconds) {
    (void)seconds;
    return 0.0;
}

#endif
