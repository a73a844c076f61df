/* fovea_winograd.h: being written. */
#ifndef FOVEA_WINOGRAD_H
#define FOVEA_WINOGRAD_H
#include "fovea_kernels.h"
#endif
