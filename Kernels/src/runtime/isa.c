/*
 * Run-time ISA selection: detect what the CPU supports once, pick the default
 * (FOVEA_ISA or the best supported), and let callers force a level.
 */
#include "fovea_kernels.h"
#include "runtime.h"
#include "amx.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static const char *const isa_names[FOVEA_ISA_COUNT] = {"scalar", "avx2", "avx512", "avx512bf16", "amx", "neon"};

/* Bit i set: ISA i is usable. -1 until detected. Detection is idempotent, so a race only repeats it. */
static atomic_int supported_mask = -1;
/* The default ISA (FOVEA_ISA or best); -1 until computed. */
static atomic_int default_isa = -1;
/* The forced ISA; -1 means "use the default". */
static atomic_int forced_isa = -1;

static int isa_is_supported(int isa);

static int detect_supported_mask(void) {
    int mask = 1 << FOVEA_ISA_SCALAR;
#if FOVEA_HAVE_X86_VARIANTS
    __builtin_cpu_init();
    /* __builtin_cpu_supports also checks that the OS saves the AVX / AVX-512 registers. */
    const int avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    if (avx2) mask |= 1 << FOVEA_ISA_AVX2;
    const int avx512 = avx2 && __builtin_cpu_supports("avx512f");
    if (avx512) mask |= 1 << FOVEA_ISA_AVX512;
    const int avx512bf16 = avx512 && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
                           __builtin_cpu_supports("avx512bf16");
    if (avx512bf16) mask |= 1 << FOVEA_ISA_AVX512BF16;
    /* AMX also needs the kernel's permission for the tile state (runtime/amx.c asks for it). */
    if (avx512bf16 && fovea_amx_usable()) mask |= 1 << FOVEA_ISA_AMX;
#endif
#if FOVEA_HAVE_NEON_VARIANTS
    mask |= 1 << FOVEA_ISA_NEON; /* part of every AArch64 CPU */
#endif
    return mask;
}

#if FOVEA_HAVE_X86_VARIANTS
#include <cpuid.h>
#endif

/* -1 until detected; detection is idempotent, so a race only repeats it. */
static atomic_int avxvnni_state = -1, avx512vnni_state = -1;

static int detect_avxvnni(void) {
#if FOVEA_HAVE_X86_VARIANTS
    unsigned eax, ebx, ecx, edx;
    if (!isa_is_supported(FOVEA_ISA_AVX2)) return 0; /* also: the OS saves the ymm registers */
    if (__get_cpuid_max(0, NULL) < 7 || !__get_cpuid_count(7, 1, &eax, &ebx, &ecx, &edx)) return 0;
    return (int)(eax >> 4 & 1);
#else
    return 0;
#endif
}

static int detect_avx512vnni(void) {
#if FOVEA_HAVE_X86_VARIANTS
    __builtin_cpu_init();
    return isa_is_supported(FOVEA_ISA_AVX512) && __builtin_cpu_supports("avx512vnni");
#else
    return 0;
#endif
}

int fovea_cpu_has_avxvnni(void) {
    int state = atomic_load(&avxvnni_state);
    if (state < 0) atomic_store(&avxvnni_state, state = detect_avxvnni());
    return state;
}

int fovea_cpu_has_avx512vnni(void) {
    int state = atomic_load(&avx512vnni_state);
    if (state < 0) atomic_store(&avx512vnni_state, state = detect_avx512vnni());
    return state;
}

static int isa_is_supported(int isa) {
    int mask = atomic_load(&supported_mask);
    if (mask < 0) {
        mask = detect_supported_mask();
        atomic_store(&supported_mask, mask);
    }
    return isa >= 0 && isa < FOVEA_ISA_COUNT && (mask >> isa) & 1;
}

const char *fovea_isa_name(fovea_isa isa) { return (unsigned)isa < FOVEA_ISA_COUNT ? isa_names[isa] : NULL; }

int fovea_isa_level(const char *name) {
    if (name == NULL) return -1;
    for (int i = 0; i < FOVEA_ISA_COUNT; i++) {
        if (strcmp(name, isa_names[i]) == 0) return i;
    }
    return -1;
}

static int best_supported_isa(void) {
    for (int i = FOVEA_ISA_COUNT - 1; i > 0; i--) {
        if (isa_is_supported(i)) return i;
    }
    return FOVEA_ISA_SCALAR;
}

static int default_choice(void) {
    int isa = atomic_load(&default_isa);
    if (isa < 0) {
        const int from_env = fovea_isa_level(getenv("FOVEA_ISA"));
        isa = isa_is_supported(from_env) ? from_env : best_supported_isa();
        atomic_store(&default_isa, isa);
    }
    return isa;
}

static fovea_isa active_choice(void) {
    const int forced = atomic_load(&forced_isa);
    return (fovea_isa)(forced >= 0 ? forced : default_choice());
}

/* Called only by configs/: the drivers ask their config, never the ISA. */
fovea_isa fovea_active_isa(void) { return active_choice(); }

fovea_status fovea_kernels_set_isa(const char *name) {
    if (name == NULL || strcmp(name, "auto") == 0) {
        atomic_store(&forced_isa, -1);
        return FOVEA_STATUS_OK;
    }
    const int isa = fovea_isa_level(name);
    if (isa < 0) return FOVEA_STATUS_UNKNOWN_ISA;
    if (!isa_is_supported(isa)) return FOVEA_STATUS_UNSUPPORTED_ISA;
    atomic_store(&forced_isa, isa);
    return FOVEA_STATUS_OK;
}

const char *fovea_kernels_isa_name(void) {
    return isa_names[active_choice()];
}

const char *fovea_kernels_default_isa_name(void) {
    return isa_names[default_choice()];
}

int fovea_kernels_isa_supported(const char *name) {
    return isa_is_supported(fovea_isa_level(name));
}
