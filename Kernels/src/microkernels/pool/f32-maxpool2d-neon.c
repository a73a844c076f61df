/*
 * Max pooling of one plane with NEON (the body: pool2d-neon.h). Each lane
 * folds its taps as the scalar code does, acc = x > acc ? x : acc, with a
 * compare and a select: FMAX would let a NaN win.
 */
#define POOL_NAME fovea_f32_maxpool2d__neon
#define POOL_INIT vdupq_n_f32(-FLT_MAX)
#define POOL_FOLD(acc, v) vbslq_f32(vcgtq_f32((v), (acc)), (v), (acc))
#define POOL_FINISH(acc, p, rows) (acc)
#define POOL_OUTPUT fovea_maxpool2d_output
#include "pool2d-neon.h"
