/*
 * Internal: the AMX bf16 GEMM microkernel (Intel AMX-TILE + AMX-BF16), kept
 * apart from gemm-bf16.h so that the configs plug it in only where it is
 * compiled: `#ifdef FOVEA_HAVE_AMX_KERNEL`. Call it only where
 * fovea_amx_usable() is 1 (runtime/amx.h); it aborts otherwise.
 *
 * Contract (shared with the other bf16 GEMM microkernels):
 *   C[mr×nr] (fp32, row stride ldc; mr ≤ 32, nr ≤ 32)
 *     = (accumulate ? C : 0) + A·B over kc, then + bias[row] (bias not NULL),
 *     then the epilogue (epilogue not NULL).
 * kc is a multiple of 32 (zero-padded). Only the mr×nr part of C is read or
 * written.
 *  - A panel: [kc/32][32 rows][32 k] bf16: A[r][k] at a[(k/32)·1024 + r·32 + k%32]
 *    (one k-block of 16 rows is an AMX tile of 16 rows × 64 bytes, stride 64).
 *  - B panel: [kc/2][32 columns][2] bf16, pairs of k interleaved:
 *    B[k][j] at b[(k/2)·64 + j·2 + k%2] (16 columns of one k-block are a
 *    tile of 16 rows × 64 bytes, stride 128).
 * Rows past mr and columns past nr of the panels are zero padding; their
 * products are computed and dropped.
 * Arithmetic (TDPBF16PS): products of bf16 are exact in fp32 and summed in fp32
 * with round-to-nearest-even; bf16 denormal inputs count as zero and fp32
 * denormal results of the dot products are flushed to zero (whatever MXCSR
 * says), as AVX512-BF16's VDPBF16PS does.
 */
#ifndef FOVEA_KERNELS_BF16_GEMM_AMX_H
#define FOVEA_KERNELS_BF16_GEMM_AMX_H

#include <stddef.h>
#include <stdint.h>

#include "../gemm/gemm.h"

#if FOVEA_HAVE_X86_VARIANTS
#define FOVEA_HAVE_AMX_KERNEL 1

void fovea_bf16_gemm_32x32__amx(size_t mr, size_t nr, size_t kc, const uint16_t *a, const uint16_t *b, float *c,
                                size_t ldc, const float *bias, int accumulate, const fovea_epilogue *epilogue);
#endif

#endif
