/* Descriptions of fovea_status values. */
#include "fovea_kernels.h"

const char *fovea_status_description(fovea_status status) {
    switch (status) {
    case FOVEA_STATUS_OK: return "success";
    case FOVEA_STATUS_NULL_POINTER: return "a required pointer (parameters, input or output) is NULL";
    case FOVEA_STATUS_INVALID_PARAMETER: return "invalid argument: a size, stride or dilation is 0 or exceeds FOVEA_KERNELS_MAX_EXTENT, shapes do not fit together, or buffers overlap";
    case FOVEA_STATUS_TOO_LARGE: return "the tensors' byte sizes do not fit in the address space";
    case FOVEA_STATUS_EMPTY_WINDOW: return "reserved: no kernel returns this status (it was: a pooling window covers only padding)";
    case FOVEA_STATUS_UNKNOWN_ISA: return "unknown ISA name; expected scalar, avx2, avx512, avx512bf16, amx or auto";
    case FOVEA_STATUS_UNSUPPORTED_ISA: return "this CPU or build does not support the requested ISA";
    case FOVEA_STATUS_BUFFER_TOO_SMALL: return "a workspace or packed buffer is smaller than its size query said";
    case FOVEA_STATUS_PACKING_MISMATCH: return "packed weights were made for another shape, algorithm or ISA";
    case FOVEA_STATUS_UNSUPPORTED_QUANTIZATION: return "unsupported quantization: int8 weights must be symmetric (zero point 0)";
    }
    return "unknown fovea_status value";
}
