#ifndef FOVEA_VECTOR_ISA_H
#define FOVEA_VECTOR_ISA_H

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The best vector ISA of the kernels that this CPU and build can run
 * ("avx512", "avx2"), or NULL when the kernels have only their portable
 * scalar C here (any CPU without AVX2 + FMA, every non-x86 CPU today: on
 * AArch64 only the GEMM tile has NEON code, so it is NULL there too).
 * It says what the hardware allows: FOVEA_ISA and fovea_kernels_set_isa do
 * not change it. Fovea's backend registry asks it to decide whether the
 * C kernels or the portable Swift SIMD backend come first. A static string.
 */
const char *fovea_kernels_vector_isa(void);

#ifdef __cplusplus
}
#endif

#endif
