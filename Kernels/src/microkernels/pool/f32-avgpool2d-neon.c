/*
 * Average pooling of one plane with NEON (the body: pool2d-neon.h). Each lane
 * adds its taps in the scalar order and divides by the same count (interior
 * columns have every column tap inside the input), so results match the
 * scalar variant bit for bit.
 */
#define POOL_NAME fovea_f32_avgpool2d__neon
#define POOL_INIT vdupq_n_f32(0.0f)
#define POOL_FOLD(acc, v) vaddq_f32((acc), (v))
#define POOL_FINISH(acc, p, rows) vdivq_f32((acc), vdupq_n_f32(avg_divisor((p), (rows))))
#define POOL_OUTPUT fovea_avgpool2d_output

#include "pooling.h"

static inline __attribute__((always_inline)) float avg_divisor(const fovea_pool2d_params *p, fovea_taps rows) {
    const fovea_taps all_columns = {0, (int64_t)p->kernel_width, (int64_t)p->kernel_width};
    return fovea_avgpool2d_divisor(p, rows, all_columns);
}

#include "pool2d-neon.h"
