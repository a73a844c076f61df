/*
 * The int8 GEMM kernels (configs/config.h) and which one each ISA level packs
 * for. The table's order is fixed: packed weights record a kernel's index.
 * The portable rows over the VNNI and AMX layouts are never chosen by
 * default (the scalar kernel packs B with the portable packer, so
 * FOVEA_ISA=scalar runs no intrinsics); they let tests run those layouts' packing and driver anywhere.
 */
#include "config.h"
#include "../runtime/amx.h"

#include <string.h>

static int always(void) { return 1; }
#if FOVEA_HAVE_NEON_VARIANTS
static int has_dotprod(void) {
    const char *features = fovea_kernels_arm_features();
    return features != NULL && strstr(features, "dotprod") != NULL;
}
static int has_i8mm(void) {
    const char *features = fovea_kernels_arm_features();
    return features != NULL && strstr(features, "i8mm") != NULL;
}
#endif
#if FOVEA_HAVE_X86_VARIANTS
static int has_avx2(void) { return fovea_kernels_isa_supported("avx2"); }
static int has_amx_int8(void) { return fovea_amx_int8_usable(); }
#endif

/* B packing: SSE2's interleaves on every x86-64 CPU (the packer falls back to C for layouts it lacks). */
#if FOVEA_HAVE_X86_VARIANTS
#define PACK_B fovea_qs8_gemm_pack_b__sse2
#else
#define PACK_B fovea_qs8_gemm_pack_b__scalar
#endif

static const fovea_qs8_gemm_config table[] = {
    {"qs8_gemm_4x8c2_scalar", 4, 8, 2, 2, 2, 0, fovea_qs8_gemm__scalar, always, fovea_qs8_gemm_pack_b__scalar, 0, 0},
    {"qs8_gemm_6x16c4_scalar", 6, 16, 4, 4, 4, 0, fovea_qs8_gemm__scalar, always, PACK_B, 0, 0},
    {"qs8_gemm_8x32c4_scalar", 8, 32, 4, 4, 4, 0, fovea_qs8_gemm__scalar, always, PACK_B, 0, 0},
    {"qs8_gemm_32x32c64_scalar", 32, 32, 4, 64, 64, 0, fovea_qs8_gemm__scalar, always, PACK_B, 0, 0},
#if FOVEA_HAVE_X86_VARIANTS
    {"qs8_gemm_6x16c2_avx2", 6, 16, 2, 2, 2, 1, fovea_qs8_gemm_6x16c2__avx2, has_avx2, PACK_B, 0, 0},
    {"qs8_gemm_6x16c4_avxvnni", 6, 16, 4, 4, 4, 0, fovea_qs8_gemm_6x16c4__avxvnni, fovea_cpu_has_avxvnni, PACK_B, 0, 0},
    {"qs8_gemm_8x32c4_avx512vnni", 8, 32, 4, 4, 4, 0, fovea_qs8_gemm_8x32c4__avx512vnni, fovea_cpu_has_avx512vnni, PACK_B, 0, 0},
    {"qs8_gemm_32x32_amx", 32, 32, 4, 64, 64, 0, fovea_qs8_gemm_32x32__amx, has_amx_int8, PACK_B, 1, 0},
#endif
#if FOVEA_HAVE_NEON_VARIANTS
    {"qs8_gemm_8x12c4_neondot", 8, 12, 4, 4, 4, 0, fovea_qs8_gemm_8x12c4__neondot, has_dotprod, PACK_B, 0, 1},
    {"qs8_gemm_8x8c8_neoni8mm", 8, 8, 8, 8, 8, 0, fovea_qs8_gemm_8x8c8__neoni8mm, has_i8mm, PACK_B, 0, 1},
#endif
};
enum { table_count = sizeof table / sizeof table[0] };

const fovea_qs8_gemm_config *fovea_qs8_gemm_config_at(size_t i) { return i < table_count ? &table[i] : NULL; }

const fovea_qs8_gemm_config *fovea_qs8_gemm_config_named(const char *name) {
    if (name == NULL) return NULL;
    for (size_t i = 0; i < table_count; i++) {
        if (strcmp(table[i].name, name) == 0) return &table[i];
    }
    return NULL;
}

size_t fovea_qs8_gemm_config_index(const fovea_qs8_gemm_config *config) { return (size_t)(config - table); }

/* The best of `names` (best first) this CPU runs; the scalar kernel if none. */
static const fovea_qs8_gemm_config *first_supported(const char *const *names, size_t count) {
    for (size_t i = 0; i < count; i++) {
        const fovea_qs8_gemm_config *config = fovea_qs8_gemm_config_named(names[i]);
        if (config != NULL && config->supported()) return config;
    }
    return &table[0];
}

const fovea_qs8_gemm_config *fovea_qs8_gemm_config_active(void) {
    static const char *const amx[] = {"qs8_gemm_32x32_amx", "qs8_gemm_8x32c4_avx512vnni", "qs8_gemm_6x16c4_avxvnni",
                                      "qs8_gemm_6x16c2_avx2"};
    switch (fovea_active_isa()) {
    case FOVEA_ISA_SCALAR: return &table[0];
    case FOVEA_ISA_NEON: { /* SMMLA where the CPU has i8mm, SDOT where it has the dot product, else the portable tile */
        static const char *const neon[] = {"qs8_gemm_8x8c8_neoni8mm", "qs8_gemm_8x12c4_neondot"};
        return first_supported(neon, 2);
    }
    case FOVEA_ISA_AVX2: return first_supported(amx + 2, 2);
    case FOVEA_ISA_AVX512:
    case FOVEA_ISA_AVX512BF16: return first_supported(amx + 1, 3);
    case FOVEA_ISA_AMX: return first_supported(amx, 4);
    case FOVEA_ISA_COUNT: break;
    }
    return &table[0];
}
