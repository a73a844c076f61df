/*
 * The exported microkernel entry points (fovea_gemm.h): the SGEMM microkernels
 * of gemm.h alone, one full tile per call, for benchmarks and tests.
 */
#include "../configs/config.h"

#include <stdint.h>
#include <string.h>

/* The fovea_isa of a name: -1 unknown, -2 known but not supported here; NULL is the active ISA. */
static int isa_of(const char *name) {
    if (name == NULL) return (int)fovea_gemm_config_active()->isa;
    const int level = fovea_isa_level(name);
    if (level < 0) return -1;
    return fovea_kernels_isa_supported(name) ? level : -2;
}

/* The microkernel of an ISA name, or the status that refuses it. */
static fovea_status config_of(const char *isa, const fovea_gemm_config **config) {
    const int level = isa_of(isa);
    if (level == -1) return FOVEA_STATUS_UNKNOWN_ISA;
    if (level == -2) return FOVEA_STATUS_UNSUPPORTED_ISA;
    *config = fovea_gemm_config_for((fovea_isa)level);
    return FOVEA_STATUS_OK;
}

fovea_status fovea_gemm_microkernel_tile(const char *isa, size_t *mr, size_t *nr) {
    const fovea_gemm_config *config = NULL;
    const fovea_status status = config_of(isa, &config);
    if (status != FOVEA_STATUS_OK) return status;
    if (mr == NULL || nr == NULL) return FOVEA_STATUS_NULL_POINTER;
    *mr = config->mr;
    *nr = config->nr;
    return FOVEA_STATUS_OK;
}

const char *fovea_gemm_microkernel_name(const char *isa) {
    const fovea_gemm_config *config = NULL;
    return config_of(isa, &config) == FOVEA_STATUS_OK ? config->name : NULL;
}

/* n·m floats fit in the address space (as bytes). */
static int floats_fit(size_t n, size_t m) {
    size_t count = 0, bytes = 0;
    return !__builtin_mul_overflow(n, m, &count) && !__builtin_mul_overflow(count, sizeof(float), &bytes) &&
           bytes <= (size_t)PTRDIFF_MAX;
}

fovea_status fovea_gemm_microkernel_repeat_f32(const char *isa, size_t kc, const float *a_panel,
                                               const float *b_panel, float *c, size_t ldc, size_t repeats) {
    const fovea_gemm_config *config = NULL;
    const fovea_status status = config_of(isa, &config);
    if (status != FOVEA_STATUS_OK) return status;
    if (a_panel == NULL || b_panel == NULL || c == NULL) return FOVEA_STATUS_NULL_POINTER;
    const size_t mr = config->mr, nr = config->nr;
    if (kc == 0 || kc > FOVEA_KERNELS_MAX_EXTENT || ldc < nr) return FOVEA_STATUS_INVALID_PARAMETER;
    /* C spans (mr − 1)·ldc + nr floats. */
    if (!floats_fit(kc, mr) || !floats_fit(kc, nr) || !floats_fit(mr, ldc)) return FOVEA_STATUS_TOO_LARGE;
    for (size_t i = 0; i < repeats; i++) config->ukernel(mr, nr, kc, a_panel, b_panel, c, ldc, NULL, 0, NULL);
    return FOVEA_STATUS_OK;
}

fovea_status fovea_gemm_microkernel_f32(const char *isa, size_t kc, const float *a_panel, const float *b_panel,
                                        float *c, size_t ldc) {
    return fovea_gemm_microkernel_repeat_f32(isa, kc, a_panel, b_panel, c, ldc, 1);
}
