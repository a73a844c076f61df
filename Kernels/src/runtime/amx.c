/*
 * AMX detection and the per-thread tile configuration (amx.h), and the public
 * status text (fovea_amx.h).
 */
#define _GNU_SOURCE /* syscall */

#include "amx.h"
#include "fovea_amx.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if FOVEA_HAVE_X86_VARIANTS
#include <cpuid.h>
#include <immintrin.h>
#endif

#if defined(__linux__) && FOVEA_HAVE_X86_VARIANTS
#include <sys/syscall.h>
#include <unistd.h>
#endif

/* Linux's arch_prctl codes (asm/prctl.h, 5.16+) and the tile data's XSAVE feature number. */
#define FOVEA_ARCH_GET_XCOMP_PERM 0x1022
#define FOVEA_ARCH_REQ_XCOMP_PERM 0x1023
#define FOVEA_XFEATURE_XTILECFG 17
#define FOVEA_XFEATURE_XTILEDATA 18

static pthread_once_t detect_once = PTHREAD_ONCE_INIT;
/* Written only inside detect_once, read only after it: pthread_once orders both. */
static int usable;
static char status_text[192] = "not detected";

#if FOVEA_HAVE_X86_VARIANTS
/* Set when this thread's tiles hold a configuration loaded by fovea_amx_load_tile_config. */
static _Thread_local const fovea_amx_tile_config *thread_config;
#endif

static int deny_requested(void) {
    const char *deny = getenv("FOVEA_AMX_DENY");
    return deny != NULL && deny[0] != '\0' && strcmp(deny, "0") != 0;
}

#if FOVEA_HAVE_X86_VARIANTS

/* CPUID.(7,0):EDX has AMX-TILE (bit 24) and AMX-BF16 (bit 22). AMX-INT8 (bit 25) is not needed here. */
static int cpu_has_amx_bf16(void) {
    unsigned eax, ebx, ecx, edx;
    if (__get_cpuid_max(0, NULL) < 7) return 0;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return 0;
    return (edx >> 24 & 1) && (edx >> 22 & 1);
}

/* XCR0 (XGETBV with ECX = 0), or 0 if the OS has not enabled XSAVE (CPUID.1:ECX.OSXSAVE, bit 27). */
static uint64_t read_xcr0(void) {
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || !(ecx >> 27 & 1)) return 0;
    uint32_t low, high;
    /* Encoded as bytes: baseline x86-64 compilers reject the xgetbv mnemonic without -mxsave. */
    __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(low), "=d"(high) : "c"(0));
    return (uint64_t)high << 32 | low;
}

/* Refused: the one notice, then the status text. */
static void refuse(const char *reason) {
    fprintf(stderr, "fovea: AMX present but the kernel refused tile data (arch_prctl: %s); using avx512bf16\n",
            reason);
    snprintf(status_text, sizeof status_text, "kernel refused ARCH_REQ_XCOMP_PERM: %s", reason);
}

static void detect(void) {
    usable = 0;
    if (!cpu_has_amx_bf16()) {
        snprintf(status_text, sizeof status_text, "no AMX on this CPU");
        return;
    }
    const uint64_t tile_state = (uint64_t)1 << FOVEA_XFEATURE_XTILECFG | (uint64_t)1 << FOVEA_XFEATURE_XTILEDATA;
    if ((read_xcr0() & tile_state) != tile_state) {
        snprintf(status_text, sizeof status_text, "OS does not enable tile state (XCR0)");
        return;
    }
#if defined(__linux__)
    if (deny_requested()) {
        refuse("denied by FOVEA_AMX_DENY");
        return;
    }
    if (syscall(SYS_arch_prctl, FOVEA_ARCH_REQ_XCOMP_PERM, FOVEA_XFEATURE_XTILEDATA) != 0) {
        refuse(strerror(errno));
        return;
    }
    uint64_t permitted = 0; /* the kernel writes a u64 */
    if (syscall(SYS_arch_prctl, FOVEA_ARCH_GET_XCOMP_PERM, &permitted) != 0) {
        refuse(strerror(errno));
        return;
    }
    if (!(permitted >> FOVEA_XFEATURE_XTILEDATA & 1)) {
        refuse("granted, but ARCH_GET_XCOMP_PERM lacks XTILEDATA");
        return;
    }
    usable = 1;
    snprintf(status_text, sizeof status_text, "usable");
#else
    /* Other systems have their own (or no) permission scheme; none is implemented, so tiles stay unused. */
    (void)deny_requested;
    snprintf(status_text, sizeof status_text, "AMX tile permission is implemented for Linux only");
#endif
}

#else /* not x86 */

static void detect(void) {
    (void)deny_requested;
    usable = 0;
    snprintf(status_text, sizeof status_text, "not x86");
}

#endif

int fovea_amx_usable(void) {
    pthread_once(&detect_once, detect);
    return usable;
}

int fovea_amx_int8_usable(void) {
#if FOVEA_HAVE_X86_VARIANTS
    if (!fovea_amx_usable()) return 0;
    unsigned eax, ebx, ecx, edx;
    /* CPUID.(7,0):EDX bit 25: AMX-INT8 (every AMX CPU so far has it with AMX-BF16, but it is a separate bit). */
    return __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) && (edx >> 25 & 1);
#else
    return 0;
#endif
}

const char *fovea_amx_status(void) {
    pthread_once(&detect_once, detect);
    return status_text;
}

const char *fovea_kernels_amx_status(void) { return fovea_amx_status(); }

int fovea_kernels_amx_usable(void) { return fovea_amx_usable(); }

void fovea_amx_require_permission(const char *kernel) {
    if (__builtin_expect(fovea_amx_usable(), 1)) return;
    fprintf(stderr, "fovea: AMX kernel %s called without the tile data permission (%s); aborting\n", kernel,
            fovea_amx_status());
    abort();
}

const fovea_amx_tile_config fovea_amx_config_full_tiles = {
    .palette = 1,
    .colsb = {64, 64, 64, 64, 64, 64, 64, 64},
    .rows = {16, 16, 16, 16, 16, 16, 16, 16},
};

#if FOVEA_HAVE_X86_VARIANTS

FOVEA_TARGET_AMX void fovea_amx_load_tile_config(const fovea_amx_tile_config *config) {
    if (thread_config == config) return;
    _tile_loadconfig(config);
    thread_config = config;
}

static FOVEA_TARGET_AMX void release_tiles(void) { _tile_release(); }

#endif

void fovea_amx_release(void) {
#if FOVEA_HAVE_X86_VARIANTS
    /* A configured thread implies the permission, so TILERELEASE cannot fault here. */
    if (thread_config == NULL) return;
    release_tiles();
    thread_config = NULL;
#endif
}
