/*
 * Internal run-time services shared by all kernels: which ISA variant to use
 * and how many threads a call runs on. Not part of the public API.
 */
#ifndef FOVEA_KERNELS_RUNTIME_H
#define FOVEA_KERNELS_RUNTIME_H

#include <stddef.h>

#include "parallel.h"

/* Variants are compiled only where the compiler can target them. */
#if defined(__x86_64__) || defined(__i386__)
#define FOVEA_HAVE_X86_VARIANTS 1
#else
#define FOVEA_HAVE_X86_VARIANTS 0
#endif

/* AArch64 always has NEON (Advanced SIMD) with FMA: its kernels need no target attribute. */
#if defined(__aarch64__)
#define FOVEA_HAVE_NEON_VARIANTS 1
#else
#define FOVEA_HAVE_NEON_VARIANTS 0
#endif

/* ARMv8.2's optional int8 dot product (SDOT/UDOT), for kernels chosen only where HWCAP reports it. */
#define FOVEA_TARGET_NEON_DOTPROD __attribute__((target("arch=armv8.2-a+dotprod")))
/* ARMv8.6's int8 matrix multiply (SMMLA), optional from ARMv8.2 on: kernels chosen only where HWCAP2 reports i8mm. */
#define FOVEA_TARGET_NEON_I8MM __attribute__((target("arch=armv8.2-a+i8mm")))

/*
 * Per-function target attributes for the wider variants: no -m flags anywhere,
 * so every build targets baseline x86-64 and still carries the AVX2 and
 * AVX-512 code, which runs only after dispatch chose it.
 */
#define FOVEA_TARGET_AVX2 __attribute__((target("avx2,fma")))
#define FOVEA_TARGET_AVX512 __attribute__((target("avx512f,avx2,fma")))
/* AVX-512 with the bf16 dot product (vdpbf16ps) and conversions (vcvtneps2bf16). */
#define FOVEA_TARGET_AVX512BF16 __attribute__((target("avx512f,avx512bw,avx512vl,avx512bf16,avx2,fma")))
/* 256-bit vpdpbusd (VEX-encoded AVX-VNNI) and 512-bit vpdpbusd. */
#define FOVEA_TARGET_AVXVNNI __attribute__((target("avx2,fma,avxvnni")))
#define FOVEA_TARGET_AVX512VNNI __attribute__((target("avx512f,avx512vnni,avx2,fma")))
/* AMX tiles with int8 products (tdpbusd). */
#define FOVEA_TARGET_AMX_INT8 \
    __attribute__((target("avx512f,avx512bw,avx512vl,avx512bf16,avx2,fma,amx-tile,amx-bf16,amx-int8")))
/* The above plus AMX tiles with bf16 tile products (tdpbf16ps). */
#define FOVEA_TARGET_AMX \
    __attribute__((target("avx512f,avx512bw,avx512vl,avx512bf16,avx2,fma,amx-tile,amx-bf16")))

/*
 * The ISA levels, lowest first; each x86 level includes the ones below it.
 * Every config table has a row per level; the levels above AVX-512 only add
 * bf16 arithmetic, so fp32 tables run AVX-512's row there (configs/config.h).
 * NEON is ARM64's only level beside scalar (its optional dot-product, bf16
 * and i8mm extensions are detected, runtime/arm-features.c, but no kernel
 * uses them yet); it is last so that the x86 levels keep their numbers in
 * packed weights.
 */
typedef enum fovea_isa {
    FOVEA_ISA_SCALAR = 0,
    FOVEA_ISA_AVX2 = 1,       /* AVX2 + FMA */
    FOVEA_ISA_AVX512 = 2,     /* AVX-512F */
    FOVEA_ISA_AVX512BF16 = 3, /* AVX-512F + AVX512_BF16 (vdpbf16ps) */
    FOVEA_ISA_AMX = 4,        /* the above + AMX-TILE + AMX-BF16, with the OS's permission to use the tiles */
    FOVEA_ISA_NEON = 5,       /* AArch64 Advanced SIMD (FMA by lane); never on x86 */
    FOVEA_ISA_COUNT = 6
} fovea_isa;

/*
 * The ISA kernel calls use now (detected once, then cached; fovea_kernels_set_isa
 * forces another). Only configs/ calls it: drivers take their microkernels from
 * their family's config (configs/config.h).
 */
fovea_isa fovea_active_isa(void);

/*
 * CPU features outside the levels above, for the int8 kernels' config
 * (configs/gemm-qs8-config.c): 256-bit vpdpbusd (AVX-VNNI, CPUID 7.1:EAX
 * bit 4, with AVX2's OS support) and 512-bit vpdpbusd (AVX512-VNNI, with
 * AVX-512F's). Detected once; 0 off x86.
 */
int fovea_cpu_has_avxvnni(void);
int fovea_cpu_has_avx512vnni(void);

/* The level of an ISA name ("scalar", "avx2", "avx512", "avx512bf16", "amx", "neon"), or -1 if unknown; supported or not. */
int fovea_isa_level(const char *name);

/* The name of a level ("avx512bf16"); NULL past FOVEA_ISA_COUNT. */
const char *fovea_isa_name(fovea_isa isa);

/*
 * The threads a kernel call on `pool` runs on: the pool's `threads` (NULL, 0
 * or 1: the calling thread only), reduced to 1 for small jobs of about `work`
 * elementary operations (a parallel region costs microseconds). Each call
 * brings its own pool and count, so two concurrent runs with different counts
 * each get theirs (there is no process-wide thread setting).
 */
int fovea_threads_for(const fovea_threadpool *pool, double work);

/* The thread count a call on `pool` sizes its workspace for: the pool's `threads`, at least 1. */
size_t fovea_pool_threads(const fovea_threadpool *threadpool);

#endif
