/* Which vector code the kernels have for this CPU (fovea_vector_isa.h). */
#include "fovea_kernels.h"
#include "fovea_vector_isa.h"

#include <stddef.h>

const char *fovea_kernels_vector_isa(void) {
    /*
     * Best first; every name but "scalar" in fovea_kernels_set_isa's list. Not
     * "neon" yet: on AArch64 the GEMM, depthwise, pooling, Winograd, elementwise
     * and softmax kernels are NEON code, but the small-channel stem convolution
     * and the int8 tile are not, and none of it has been timed on ARM hardware
     * against the Swift simd backend (NEON through Swift's SIMD types).
     */
    static const char *const vector_isas[] = {"avx512", "avx2"};
    for (size_t i = 0; i < sizeof vector_isas / sizeof vector_isas[0]; i++) {
        if (fovea_kernels_isa_supported(vector_isas[i])) return vector_isas[i];
    }
    return NULL;
}
