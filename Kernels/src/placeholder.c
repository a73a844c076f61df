#include "fovea_kernels.h"
