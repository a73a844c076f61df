/* fovea_conv2d_check: the argument checks every convolution entry point runs first. */
#include "fovea_kernels.h"

#include <stdint.h>

/* a·b·c·d without overflowing a byte count (4-byte floats within ptrdiff_t). */
static int fits(size_t a, size_t b, size_t c, size_t d) {
    size_t n = 0;
    return !__builtin_mul_overflow(a, b, &n) && !__builtin_mul_overflow(n, c, &n) &&
           !__builtin_mul_overflow(n, d, &n) && !__builtin_mul_overflow(n, sizeof(float), &n) &&
           n <= (size_t)PTRDIFF_MAX;
}

fovea_status fovea_conv2d_check(const fovea_conv2d_params *p) {
    if (p == NULL) return FOVEA_STATUS_NULL_POINTER;
    const size_t extents[] = {p->input_height, p->input_width, p->output_height, p->output_width,
                              p->kernel_height, p->kernel_width, p->stride_height, p->stride_width,
                              p->dilation_height, p->dilation_width, p->pad_top, p->pad_left,
                              p->channels, p->output_channels, p->groups, p->batch};
    for (size_t i = 0; i < sizeof extents / sizeof extents[0]; i++) {
        if (extents[i] > FOVEA_KERNELS_MAX_EXTENT) return FOVEA_STATUS_INVALID_PARAMETER;
    }
    if (p->batch == 0 || p->channels == 0 || p->input_height == 0 || p->input_width == 0 ||
        p->output_channels == 0 || p->groups == 0 || p->output_height == 0 || p->output_width == 0 ||
        p->kernel_height == 0 || p->kernel_width == 0 || p->stride_height == 0 || p->stride_width == 0 ||
        p->dilation_height == 0 || p->dilation_width == 0) {
        return FOVEA_STATUS_INVALID_PARAMETER;
    }
    if (p->channels % p->groups != 0 || p->output_channels % p->groups != 0) return FOVEA_STATUS_INVALID_PARAMETER;
    if (!fits(p->batch, p->channels, p->input_height, p->input_width) ||
        !fits(p->batch, p->output_channels, p->output_height, p->output_width) ||
        !fits(p->output_channels, p->channels / p->groups, p->kernel_height, p->kernel_width) ||
        !fits(p->channels / p->groups, p->kernel_height, p->kernel_width, p->output_height * p->output_width)) {
        return FOVEA_STATUS_TOO_LARGE;
    }
    return FOVEA_STATUS_OK;
}
