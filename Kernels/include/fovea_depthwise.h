/* fovea_depthwise.h: being written. */
#ifndef FOVEA_DEPTHWISE_H
#define FOVEA_DEPTHWISE_H
#include "fovea_kernels.h"
#endif
