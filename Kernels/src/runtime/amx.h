/*
 * Internal: whether this process may run AMX tile instructions (the CPU has
 * AMX-TILE and AMX-BF16 and the OS granted the tile state). Called once by
 * isa.c's detection.
 */
#ifndef FOVEA_KERNELS_AMX_H
#define FOVEA_KERNELS_AMX_H

/* 1 if AMX bf16 tiles are usable by this process, else 0. */
int fovea_amx_usable(void);

#endif
