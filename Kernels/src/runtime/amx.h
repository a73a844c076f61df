/*
 * Internal: whether this process may run AMX tile code, and the per-thread
 * tile configuration the AMX kernels share. Not part of the public API
 * (fovea_amx.h shows the status text).
 *
 * AMX needs three things, in this order:
 *  1. the CPU: CPUID.(7,0):EDX bits 24 (AMX-TILE) and 22 (AMX-BF16);
 *  2. the OS saving tile state: XCR0 bits 17 (XTILECFG) and 18 (XTILEDATA);
 *  3. on Linux (5.16+), the process asking for the 8 KB of tile data once:
 *     arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA). Without it, the
 *     first tile instruction faults (SIGILL), even with 1 and 2 in place.
 * fovea_amx_usable() checks all three once per process and caches the answer.
 */
#ifndef FOVEA_KERNELS_AMX_H
#define FOVEA_KERNELS_AMX_H

#include <stddef.h>
#include <stdint.h>

#include "runtime.h"

/* The same text as runtime.h's (bf16-kernels branch), so either may come first. */
#ifndef FOVEA_TARGET_AMX
#define FOVEA_TARGET_AMX \
    __attribute__((target("avx512f,avx512bw,avx512vl,avx512bf16,avx2,fma,amx-tile,amx-bf16")))
#endif

/*
 * 1 if this process may run AMX-BF16 tile code: the CPU has it, the OS saves
 * its state and (Linux) the kernel granted the tile data permission. Detected
 * on the first call, thread-safe; later calls read the cached answer.
 * Where the CPU has AMX but the kernel refuses the permission (an old kernel:
 * EINVAL; seccomp in a container: EPERM), it prints one line to stderr, once
 * per process, and returns 0: the bf16 kernels then use AVX512-BF16.
 * FOVEA_AMX_DENY=1 in the environment at detection treats the permission as
 * refused without asking (tests of the fallback on AMX machines).
 */
int fovea_amx_usable(void);

/* 1 if fovea_amx_usable() and the CPU has AMX-INT8 (tdpbusd: CPUID 7.0:EDX bit 25). */
int fovea_amx_int8_usable(void);

/* Why fovea_amx_usable() says what it says (detects first if needed): "usable", "no AMX on this CPU", ... */
const char *fovea_amx_status(void);

/*
 * The 64-byte operand of LDTILECFG (palette 1): for each of the 16 tiles its
 * rows and bytes per row; unused tiles stay 0. Every field not listed is
 * reserved and must be 0, or LDTILECFG faults.
 */
typedef struct fovea_amx_tile_config {
    uint8_t palette;      /* byte 0: 1 = 8 tiles of up to 16 rows × 64 bytes */
    uint8_t start_row;    /* byte 1: 0 (only an interrupted tile load sets it) */
    uint8_t reserved[14]; /* bytes 2-15 */
    uint16_t colsb[16];   /* bytes 16-47: bytes per row of tile i (little-endian) */
    uint8_t rows[16];     /* bytes 48-63: rows of tile i */
} __attribute__((aligned(64))) fovea_amx_tile_config;

_Static_assert(sizeof(fovea_amx_tile_config) == 64, "LDTILECFG reads exactly 64 bytes");
_Static_assert(offsetof(fovea_amx_tile_config, colsb) == 16, "colsb starts at byte 16");
_Static_assert(offsetof(fovea_amx_tile_config, rows) == 48, "rows start at byte 48");

/*
 * Palette 1 with tiles 0-7 all full (16 rows × 64 bytes): the 2×2 bf16 GEMM
 * tile (4 fp32 accumulators of 16×16, 2 A and 2 B tiles of 16 rows × 32
 * bf16) and the AMX peak probe both use it, so switching between them costs
 * no reload.
 */
extern const fovea_amx_tile_config fovea_amx_config_full_tiles;

/*
 * The entry check of every AMX kernel: returns if the tile data permission
 * was granted (fovea_amx_usable() is 1), and otherwise prints which kernel was
 * called and aborts. A kernel reached without the permission is a dispatch
 * bug; aborting with a message beats the SIGILL the first tile instruction
 * would raise, and beats returning a C that was never written. It runs in
 * every build: a cached load and a predictable branch per 32×32×kc tile.
 */
void fovea_amx_require_permission(const char *kernel);

#if FOVEA_HAVE_X86_VARIANTS
/*
 * Loads `config` (static storage: it is compared by address) into this
 * thread's tile registers unless this thread's last load was the same config.
 * LDTILECFG also zeroes every tile, so kernels never rely on tile contents
 * across calls. Call only after fovea_amx_require_permission.
 */
FOVEA_TARGET_AMX void fovea_amx_load_tile_config(const fovea_amx_tile_config *config);
#endif

/*
 * Returns this thread's tiles to their initial state (TILERELEASE) if it
 * configured them; otherwise does nothing (safe on any CPU and thread). A
 * thread with configured tiles makes every context switch save and restore
 * 8 KB of tile data; call this when a thread is done with AMX work for a
 * while: the driver, at the end of each worker's share of a bf16 GEMM (or of
 * a whole network run), not after each microkernel call (the next call would
 * reload the configuration). The next AMX kernel call configures again.
 */
void fovea_amx_release(void);

#endif
