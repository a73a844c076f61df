/*
 * The FMA peak probe (fovea_peak.h): independent multiply-add chains per ISA,
 * timed in short blocks, the fastest block wins.
 *
 * Each block runs `iterations` rounds; a round advances every accumulator
 * chain by one multiply-add, acc = acc * m + c. With m = 0.999 and c = 0.001 the
 * chains converge to 1 and never reach denormals, infinities or NaN.
 *
 * On x86-64 the loops are inline assembly: the probe must measure the
 * execution units, whatever the library is compiled with (a SwiftPM debug
 * build compiles C at -O0, where intrinsics code keeps every accumulator on
 * the stack and runs 30 times slower). Elsewhere a portable C loop measures
 * the scalar variant only; AArch64's NEON probe is inline assembly too.
 *
 * Chains per variant: enough to cover latency × issue width of current cores
 * (4-cycle FMA latency × 2 pipes = 8 in flight; 3 + 3 cycles for a scalar
 * multiply then add on 2 + 2 pipes = 12) with margin, and few enough to stay
 * in registers with m and c: 16 zmm (of 32), 12 ymm, 14 xmm (of 16).
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */

#include "fovea_kernels.h"
#include "runtime.h"
#include "peak-timing.h"

#include <stddef.h>
#include <string.h>
#include <time.h>

/* One block of a variant: `iterations` (>= 1) rounds over all its chains. */
typedef fovea_peak_block_fn peak_block_fn;

#if defined(__x86_64__)

/* Twelve / sixteen copies of one instruction on registers 0..11 / 0..15, as assembly text. */
#define ASM_12(op, reg) \
    op(reg, 0) op(reg, 1) op(reg, 2) op(reg, 3) op(reg, 4) op(reg, 5) \
    op(reg, 6) op(reg, 7) op(reg, 8) op(reg, 9) op(reg, 10) op(reg, 11)
#define ASM_14(op, reg) ASM_12(op, reg) op(reg, 12) op(reg, 13)
#define ASM_16(op, reg) ASM_14(op, reg) op(reg, 14) op(reg, 15)

/* ---- scalar: 14 chains of mulss + addss (baseline x86-64 has no FMA) ---- */

#define SCALAR_INIT(reg, k) "movaps %%xmm14, %%" #reg #k "\n\t"
#define SCALAR_STEP(reg, k) "mulss %%xmm14, %%" #reg #k "\n\taddss %%xmm15, %%" #reg #k "\n\t"

static void peak_block_scalar(size_t iterations, float m, float c) {
    __asm__ volatile(
        "movss %[m], %%xmm14\n\t"
        "movss %[c], %%xmm15\n\t"
        ASM_14(SCALAR_INIT, xmm)
        "1:\n\t"
        ASM_14(SCALAR_STEP, xmm)
        "dec %[n]\n\t"
        "jnz 1b\n\t"
        : [n] "+r"(iterations)
        : [m] "m"(m), [c] "m"(c)
        : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11",
          "xmm12", "xmm13", "xmm14", "xmm15", "cc");
}

/* ---- avx2: 12 chains of 8-lane vfmadd213ps on ymm ---- */

#define AVX2_INIT(reg, k) "vmovaps %%ymm12, %%" #reg #k "\n\t"
#define AVX2_STEP(reg, k) "vfmadd213ps %%ymm13, %%ymm12, %%" #reg #k "\n\t"

FOVEA_TARGET_AVX2 static void peak_block_avx2(size_t iterations, float m, float c) {
    __asm__ volatile(
        "vbroadcastss %[m], %%ymm12\n\t"
        "vbroadcastss %[c], %%ymm13\n\t"
        ASM_12(AVX2_INIT, ymm)
        "1:\n\t"
        ASM_12(AVX2_STEP, ymm)
        "dec %[n]\n\t"
        "jnz 1b\n\t"
        "vzeroupper\n\t"
        : [n] "+r"(iterations)
        : [m] "m"(m), [c] "m"(c)
        : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11",
          "xmm12", "xmm13", "cc");
}

/* ---- avx512: 16 chains of 16-lane vfmadd213ps on zmm ---- */

#define AVX512_INIT(reg, k) "vmovaps %%zmm16, %%" #reg #k "\n\t"
#define AVX512_STEP(reg, k) "vfmadd213ps %%zmm17, %%zmm16, %%" #reg #k "\n\t"

FOVEA_TARGET_AVX512 static void peak_block_avx512(size_t iterations, float m, float c) {
    __asm__ volatile(
        "vbroadcastss %[m], %%zmm16\n\t"
        "vbroadcastss %[c], %%zmm17\n\t"
        ASM_16(AVX512_INIT, zmm)
        "1:\n\t"
        ASM_16(AVX512_STEP, zmm)
        "dec %[n]\n\t"
        "jnz 1b\n\t"
        "vzeroupper\n\t"
        : [n] "+r"(iterations)
        : [m] "m"(m), [c] "m"(c)
        : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11",
          "xmm12", "xmm13", "xmm14", "xmm15", "xmm16", "xmm17", "cc");
}

/*
 * ---- avx512bf16: 16 chains of vdpbf16ps on zmm (fovea_bf16_dot_peak_gflops) ----
 * Each adds 32 bf16 products (2⁻¹⁰·2⁻¹⁰ from the pairs 0x3A80) per lane pair: the
 * chains grow by 2⁻¹⁹ a round and stay far from overflow for any block length.
 */

#define BF16_INIT(reg, k) "vmovaps %%zmm16, %%" #reg #k "\n\t"
#define BF16_STEP(reg, k) "vdpbf16ps %%zmm17, %%zmm17, %%" #reg #k "\n\t"

FOVEA_TARGET_AVX512BF16 static void peak_block_bf16(size_t iterations, float m, float c) {
    (void)m, (void)c;
    const unsigned pair = 0x3A803A80u;
    __asm__ volatile(
        "vpxord %%zmm16, %%zmm16, %%zmm16\n\t"
        "vpbroadcastd %[pair], %%zmm17\n\t"
        ASM_16(BF16_INIT, zmm)
        "1:\n\t"
        ASM_16(BF16_STEP, zmm)
        "dec %[n]\n\t"
        "jnz 1b\n\t"
        "vzeroupper\n\t"
        : [n] "+r"(iterations)
        : [pair] "m"(pair)
        : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11",
          "xmm12", "xmm13", "xmm14", "xmm15", "xmm16", "xmm17", "cc");
}

#else /* not x86-64: portable C for scalar; AArch64's NEON below */

/* 12 chains; a multiply and an add, contracted to an FMA where the target has one. */
static void peak_block_scalar(size_t iterations, float m, float c) {
    float a[12];
    for (int k = 0; k < 12; k++) a[k] = 1.0f;
    for (size_t i = 0; i < iterations; i++) {
        for (int k = 0; k < 12; k++) a[k] = a[k] * m + c;
    }
    volatile float sink = 0.0f;
    for (int k = 0; k < 12; k++) sink += a[k];
    (void)sink;
}

#if defined(__aarch64__)
/*
 * ---- neon: 16 chains of 4-lane fmla on v0..v15 ----
 * fmla adds a product (acc += m·c) instead of multiplying the chain: with
 * m·c ≈ 0.001 a block of any length stays far from overflow and denormals.
 */
#define ASM_16(op) \
    op(0) op(1) op(2) op(3) op(4) op(5) op(6) op(7) op(8) op(9) op(10) op(11) op(12) op(13) op(14) op(15)
#define NEON_INIT(k) "mov v" #k ".16b, v16.16b\n\t"
#define NEON_STEP(k) "fmla v" #k ".4s, v16.4s, v17.4s\n\t"
static void peak_block_neon(size_t iterations, float m, float c) {
    __asm__ volatile(
        "dup v16.4s, %w[m]\n\t"
        "dup v17.4s, %w[c]\n\t"
        ASM_16(NEON_INIT)
        "1:\n\t"
        ASM_16(NEON_STEP)
        "subs %[n], %[n], #1\n\t"
        "b.ne 1b\n\t"
        : [n] "+r"(iterations)
        : [m] "r"(m), [c] "r"(c)
        : "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12", "v13", "v14", "v15",
          "v16", "v17", "cc");
}
#endif
#endif

static double now_seconds(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (double)time.tv_sec + 1e-9 * (double)time.tv_nsec;
}

/* Blocks shorter than this are too short to time well; longer ones are interrupted more often. */
#define PEAK_BLOCK_SECONDS 2e-4

double fovea_fma_peak_gflops(const char *isa, double seconds) {
    if (!fovea_kernels_isa_supported(isa)) return 0.0;

    peak_block_fn block = peak_block_scalar;
#if defined(__x86_64__)
    double flops_per_iteration = 14.0 * 1 * 2;
    /* The bf16 levels' fp32 multiply-add is AVX-512's. */
    if (strcmp(isa, "avx512") == 0 || strcmp(isa, "avx512bf16") == 0 || strcmp(isa, "amx") == 0) {
        block = peak_block_avx512;
        flops_per_iteration = 16.0 * 16 * 2;
    } else if (strcmp(isa, "avx2") == 0) {
        block = peak_block_avx2;
        flops_per_iteration = 12.0 * 8 * 2;
    }
#elif defined(__aarch64__)
    double flops_per_iteration = 12.0 * 1 * 2;
    if (strcmp(isa, "neon") == 0) {
        block = peak_block_neon;
        flops_per_iteration = 16.0 * 4 * 2;
    }
#else
    double flops_per_iteration = 12.0 * 1 * 2;
    if (strcmp(isa, "scalar") != 0) return 0.0; /* no vector probe for this architecture */
#endif
    return fovea_peak_measure(block, 256, flops_per_iteration, seconds);
}

double fovea_bf16_dot_peak_gflops(double seconds) {
#if defined(__x86_64__)
    if (!fovea_kernels_isa_supported("avx512bf16")) return 0.0;
    return fovea_peak_measure(peak_block_bf16, 256, 16.0 * 32 * 2, seconds);
#else
    (void)seconds;
    return 0.0;
#endif
}

double fovea_peak_measure(fovea_peak_block_fn block, size_t first_iterations, double flops_per_iteration,
                          double seconds) {
    if (!(seconds > 0.0)) seconds = 0.05; /* also NaN */
    if (seconds > 10.0) seconds = 10.0;
    const float m = 0.999f, c = 0.001f;

    /* Calibrate: double the block until it takes PEAK_BLOCK_SECONDS (this also wakes the wide units up). */
    size_t iterations = first_iterations;
    const double start = now_seconds();
    for (;;) {
        const double t0 = now_seconds();
        block(iterations, m, c);
        const double elapsed = now_seconds() - t0;
        if (elapsed >= PEAK_BLOCK_SECONDS || iterations >= ((size_t)1 << 30)) break;
        iterations *= 2;
    }

    /* Measure: the fastest of as many blocks as fit in the time given (at least 10). */
    double best = 0.0;
    int blocks = 0;
    while (blocks < 10 || now_seconds() - start < seconds) {
        const double t0 = now_seconds();
        block(iterations, m, c);
        const double elapsed = now_seconds() - t0;
        if (elapsed > 0.0) {
            const double gflops = flops_per_iteration * (double)iterations / elapsed * 1e-9;
            if (gflops > best) best = gflops;
        }
        blocks++;
    }
    return best;
}
