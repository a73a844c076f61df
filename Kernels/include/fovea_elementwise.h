/* fovea_elementwise.h: being written. */
#ifndef FOVEA_ELEMENTWISE_H
#define FOVEA_ELEMENTWISE_H
#include "fovea_kernels.h"
#endif
