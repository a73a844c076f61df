/*
 * The AMX bf16 peak probe (fovea_peak.h): back-to-back TDPBF16PS on tiles that
 * stay in the tile registers, timed in short blocks, the fastest block wins
 * (as fma-peak.c does for the FMA units).
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
#define _POSIX_C_SOURCE 199309L /* clock_gettime */

#include "amx.h"
#include "fovea_peak.h"

#include <stdint.h>
#include <time.h>

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

static FOVEA_TARGET_AMX void peak_block(size_t iterations) {
    for (size_t i = 0; i < iterations; i++) {
        _tile_dpbf16ps(0, 4, 6);
        _tile_dpbf16ps(1, 4, 7);
        _tile_dpbf16ps(2, 5, 6);
        _tile_dpbf16ps(3, 5, 7);
    }
}

static double now_seconds(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (double)time.tv_sec + 1e-9 * (double)time.tv_nsec;
}

/* As fma-peak.c: long enough to time, short enough to dodge most interruptions. */
#define PEAK_BLOCK_SECONDS 2e-4

double fovea_amx_bf16_peak_gflops(double seconds) {
    if (!fovea_amx_usable()) return 0.0;
    if (!(seconds > 0.0)) seconds = 0.05; /* also NaN */
    if (seconds > 10.0) seconds = 10.0;
    const double flops_per_iteration = 4.0 * 16 * 16 * 32 * 2;

    load_operands();
    size_t iterations = 64;
    const double start = now_seconds();
    for (;;) {
        const double t0 = now_seconds();
        peak_block(iterations);
        const double elapsed = now_seconds() - t0;
        if (elapsed >= PEAK_BLOCK_SECONDS || iterations >= ((size_t)1 << 30)) break;
        iterations *= 2;
    }

    double best = 0.0;
    int blocks = 0;
    while (blocks < 10 || now_seconds() - start < seconds) {
        const double t0 = now_seconds();
        peak_block(iterations);
        const double elapsed = now_seconds() - t0;
        if (elapsed > 0.0) {
            const double gflops = flops_per_iteration * (double)iterations / elapsed * 1e-9;
            if (gflops > best) best = gflops;
        }
        blocks++;
    }
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
