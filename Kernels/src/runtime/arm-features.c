/*
 * The optional AArch64 extensions the CPU reports (fovea_kernels_arm_features):
 * read from the kernel's HWCAP / HWCAP2 words with getauxval, which also means
 * the OS enabled them. No kernel uses them yet; they are for reports and for
 * the dot-product and bf16 / int8 matrix kernels to come (SDOT/UDOT, BFDOT and
 * BFMMLA, SMMLA).
 */
#include "fovea_kernels.h"

#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>

/* asm/hwcap.h's bits, spelled out: older sysroots lack the HWCAP2 names. */
#define FOVEA_HWCAP_ASIMDDP (1UL << 20)
#define FOVEA_HWCAP2_I8MM (1UL << 13)
#define FOVEA_HWCAP2_BF16 (1UL << 14)

const char *fovea_kernels_arm_features(void) {
    /* Every combination, so that the answer is a static string (no allocation, no race). */
    static const char *const names[8] = {"", "dotprod", "bf16", "dotprod bf16",
                                         "i8mm", "dotprod i8mm", "bf16 i8mm", "dotprod bf16 i8mm"};
    const unsigned long hwcap = getauxval(AT_HWCAP), hwcap2 = getauxval(AT_HWCAP2);
    const int index = ((hwcap & FOVEA_HWCAP_ASIMDDP) ? 1 : 0) | ((hwcap2 & FOVEA_HWCAP2_BF16) ? 2 : 0) |
                      ((hwcap2 & FOVEA_HWCAP2_I8MM) ? 4 : 0);
    return names[index];
}

#else

const char *fovea_kernels_arm_features(void) {
#if defined(__aarch64__)
    return ""; /* AArch64 without Linux's auxiliary vector: none known */
#else
    return NULL;
#endif
}

#endif
