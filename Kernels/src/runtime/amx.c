/*
 * replaced by the bf16-amx branch: until its AMX detection (CPUID plus the
 * arch_prctl request for the tile state) is merged, no CPU counts as having AMX.
 */
#include "amx.h"

int fovea_amx_usable(void) { return 0; }
