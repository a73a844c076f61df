/* fovea_gemm.h — filled in below by the GEMM entry points. */
#ifndef FOVEA_GEMM_H
#define FOVEA_GEMM_H
#include "fovea_kernels.h"
#endif
