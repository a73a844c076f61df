/*
 * Internal: the one timing loop of the peak probes (fma-peak.c: FMA and
 * vdpbf16ps; amx-peak.c: TDPBF16PS). A probe supplies a block of `iterations`
 * rounds of its instruction; this calibrates the block to a length that times
 * well, then keeps the fastest of as many blocks as fit in `seconds`.
 */
#ifndef FOVEA_KERNELS_PEAK_TIMING_H
#define FOVEA_KERNELS_PEAK_TIMING_H

#include <stddef.h>

/* `iterations` rounds of a probe's instruction; m and c are opaque operands (so nothing folds). */
typedef void (*fovea_peak_block_fn)(size_t iterations, float m, float c);

/*
 * The fastest block of `block` over about `seconds` (0.05 when not positive or
 * NaN, at most 10), in GFLOP/s, starting calibration at `first_iterations`.
 */
double fovea_peak_measure(fovea_peak_block_fn block, size_t first_iterations, double flops_per_iteration,
                          double seconds);

#endif
