/*
 * Internal run-time services shared by all kernels: which ISA variant to use
 * and how many threads to run. Not part of the public API.
 */
#ifndef FOVEA_KERNELS_RUNTIME_H
#define FOVEA_KERNELS_RUNTIME_H

#include <stddef.h>

/* Variants are compiled only where the compiler can target them. */
#if defined(__x86_64__) || defined(__i386__)
#define FOVEA_HAVE_X86_VARIANTS 1
#else
#define FOVEA_HAVE_X86_VARIANTS 0
#endif

/* The ISA levels, lowest first; every kernel has one variant per level. */
typedef enum fovea_isa {
    FOVEA_ISA_SCALAR = 0,
    FOVEA_ISA_AVX2 = 1,   /* AVX2 + FMA */
    FOVEA_ISA_AVX512 = 2, /* AVX-512F */
    FOVEA_ISA_COUNT = 3
} fovea_isa;

/* The ISA kernel calls use now (detected once, then cached). */
fovea_isa fovea_active_isa(void);

/*
 * How many threads to use for a parallel loop doing about `work` elementary
 * operations: 1 for small jobs (a parallel region costs microseconds), else
 * the configured count. Always 1 without OpenMP.
 */
int fovea_thread_count_for_work(double work);

#endif
