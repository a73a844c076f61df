/*
 * The int8 GEMM tile in portable C, over any panel layout its config names
 * (MR, NR, a_kr, b_kr, int8 or int16 A): the scalar kernel of CPUs without
 * AVX2, and the same arithmetic over the VNNI and AMX layouts, so that their
 * packing and driver run (and are tested) on CPUs without those instructions.
 */
#include "gemm-qs8.h"
#include "../../configs/config.h"

void fovea_qs8_gemm__scalar(size_t mr, size_t nr, size_t k, const void *a, const uint8_t *b,
                            const fovea_qs8_requant *rq, uint8_t *c, size_t ldc,
                            const fovea_qs8_gemm_config *config) {
    /* The k-groups are powers of two (2, 4, 64): index with shifts and masks. */
    const size_t MR = config->mr, NR = config->nr, akr = config->a_kr, bkr = config->b_kr;
    const unsigned a_shift = (unsigned)__builtin_ctzll(akr), b_shift = (unsigned)__builtin_ctzll(bkr);
    const int8_t *a8 = (const int8_t *)a;
    const int16_t *a16 = (const int16_t *)a;
    for (size_t m = 0; m < mr; m++) {
        for (size_t n = 0; n < nr; n++) {
            uint32_t acc = 0; /* wraps as the vector kernels' int32 lanes (never, for K <= 65536) */
            for (size_t kk = 0; kk < k; kk++) {
                const size_t ai = (kk >> a_shift) * MR * akr + m * akr + (kk & (akr - 1));
                const int32_t w = config->a_int16 ? a16[ai] : a8[ai];
                const int32_t x = b[(kk >> b_shift) * NR * bkr + n * bkr + (kk & (bkr - 1))];
                acc += (uint32_t)(w * x);
            }
            c[m * ldc + n] = fovea_qs8_requantize((int32_t)acc, rq->bias[m], rq->scale[m], rq);
        }
    }
}
