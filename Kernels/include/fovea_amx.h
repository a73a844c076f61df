/*
 * fovea_amx.h — whether the bf16 kernels may use Intel AMX tiles in this
 * process, and why not (part of CFoveaKernels).
 *
 * AMX (Intel Xeon 4th generation and later) needs the CPU (CPUID AMX-TILE
 * and AMX-BF16), the OS saving tile state (XCR0 bits 17-18) and, on Linux,
 * the process's permission for the tile data (arch_prctl ARCH_REQ_XCOMP_PERM,
 * kernel 5.16+; containers may forbid it). The library checks all three once,
 * on first use, and uses AVX512-BF16 kernels where any is missing. When the
 * CPU has AMX but the kernel refuses the permission, it prints one line to
 * stderr, once per process. FOVEA_AMX_DENY=1 in the environment (read at that
 * first use) makes it behave as refused.
 */
#ifndef FOVEA_AMX_H
#define FOVEA_AMX_H

#ifdef __cplusplus
extern "C" {
#endif

/** 1 if the bf16 kernels may use AMX tiles in this process, else 0 (detects on first call; thread-safe). */
int fovea_kernels_amx_usable(void);

/**
 * Why fovea_kernels_amx_usable says what it says, as a short static English
 * text, never NULL: "usable", "no AMX on this CPU", "OS does not enable tile
 * state (XCR0)", "kernel refused ARCH_REQ_XCOMP_PERM: <reason>", "not x86",
 * or "AMX tile permission is implemented for Linux only".
 */
const char *fovea_kernels_amx_status(void);

#ifdef __cplusplus
}
#endif

#endif /* FOVEA_AMX_H */
