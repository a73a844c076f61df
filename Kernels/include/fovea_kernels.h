/*
 * fovea_kernels.h — Fovea's C compute kernels (the CFoveaKernels module).
 *
 * Conventions that hold for every kernel in this header:
 *
 *  - Tensors are dense float32 in NCHW order (row-major: W is contiguous, then
 *    H, then C, then N). A "plane" is one H×W image of one channel of one batch
 *    item; the kernels here parallelize over the N×C planes.
 *  - The caller allocates every buffer. Kernels never allocate, never keep a
 *    pointer after returning, and never write outside the output they are given.
 *    Input and output must not overlap.
 *  - Pointers need no particular alignment (4-byte float alignment is enough).
 *  - Every entry point checks its arguments and returns a fovea_status; on any
 *    status other than FOVEA_STATUS_OK nothing has been written. Bad arguments
 *    never crash (null pointers, zero strides, sizes whose byte count overflows).
 *  - Thread safety: kernels are reentrant and may be called from several threads
 *    at once. The one process-wide setting (fovea_kernels_set_isa) is atomic; a
 *    kernel call reads it once when it starts.
 *  - Threads: the kernels own none. Every kernel that runs in parallel takes
 *    the caller's pool per call (a trailing `const fovea_threadpool *`,
 *    fovea_threadpool.h; NULL = the calling thread only) with the thread count
 *    it may use, so two concurrent calls (two runs) with different counts each
 *    get theirs. Small jobs stay on the calling thread whatever the count.
 *    Fovea's Swift executor passes its worker pool; C callers of the
 *    standalone library can use fovea_threadpool_default (OpenMP when the
 *    library is compiled with it, fovea_kernels_has_openmp, else pthreads).
 *  - Each exported kernel has per-ISA variants (scalar, AVX2+FMA, AVX-512;
 *    bf16 kernels also AVX512_BF16 and AMX) and
 *    picks one at run time from what the CPU supports. Every variant gives the
 *    same result: bit for bit for max and average pooling, and within rounding
 *    of the last bit for global average pooling.
 */
#ifndef FOVEA_KERNELS_H
#define FOVEA_KERNELS_H

#include <stddef.h>

#include "fovea_threadpool.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Status                                                                   */
/* ------------------------------------------------------------------------ */

/** What a call did; FOVEA_STATUS_OK (0) is success. */
typedef enum fovea_status {
    FOVEA_STATUS_OK = 0,
    /** A required pointer (parameters, input or output) is NULL. */
    FOVEA_STATUS_NULL_POINTER = 1,
    /** A kernel extent, stride or dilation is 0, or a size exceeds FOVEA_KERNELS_MAX_EXTENT. */
    FOVEA_STATUS_INVALID_PARAMETER = 2,
    /** The tensors' byte sizes do not fit in the address space. */
    FOVEA_STATUS_TOO_LARGE = 3,
    /**
     * Reserved: no kernel returns it now. (The pooling kernels used to refuse windows that cover
     * only padding; they now give -FLT_MAX / 0 for them, as the reference backend does.)
     */
    FOVEA_STATUS_EMPTY_WINDOW = 4,
    /** fovea_kernels_set_isa got a name that is not scalar, avx2, avx512, avx512bf16, amx or auto. */
    FOVEA_STATUS_UNKNOWN_ISA = 5,
    /** fovea_kernels_set_isa asked for an ISA this CPU (or this build) does not have. */
    FOVEA_STATUS_UNSUPPORTED_ISA = 6,
    /** The workspace or packed buffer given is smaller than the size query said. */
    FOVEA_STATUS_BUFFER_TOO_SMALL = 7,
    /** Packed weights were made for another shape or ISA than the call describes. */
    FOVEA_STATUS_PACKING_MISMATCH = 8,
    /** Quantization the int8 kernels do not run: a non-zero weight zero point (fovea_qconv.h). */
    FOVEA_STATUS_UNSUPPORTED_QUANTIZATION = 9
} fovea_status;

/** A one-line English description of `status` (a static string; never NULL). */
const char *fovea_status_description(fovea_status status);

/** The largest spatial size, kernel extent, stride, dilation or pad the kernels accept. */
#define FOVEA_KERNELS_MAX_EXTENT ((size_t)1 << 24)

/**
 * The arithmetic of packed weights: F32 multiplies float32 values; BF16 rounds
 * the weights (when packing) and the inputs (when running) to bfloat16
 * (fovea_bf16.h), multiplies those and accumulates in float32. Inputs and
 * outputs stay float32 in memory either way.
 */
typedef enum fovea_precision { FOVEA_PRECISION_F32 = 0, FOVEA_PRECISION_BF16 = 1 } fovea_precision;

/* ------------------------------------------------------------------------ */
/* Run-time ISA selection and threads                                       */
/* ------------------------------------------------------------------------ */

/*
 * ISA names, lowest first: "scalar" (portable C), "avx2" (AVX2 + FMA),
 * "avx512" (AVX-512F), "avx512bf16" (AVX-512F + AVX512_BF16: bf16 dot products)
 * and "amx" (the above + AMX-TILE and AMX-BF16, when the OS grants the tiles).
 * Each level includes the ones below it; fp32 kernels are the same on avx512,
 * avx512bf16 and amx, which differ only in the kernels of bf16-packed weights
 * (fovea_bf16.h). Forcing "avx512" runs bf16 weights without bf16 hardware.
 * On AArch64 the levels are "scalar" and "neon" (Advanced SIMD, on every
 * AArch64 CPU); no x86 level is supported there, nor "neon" on x86.
 *
 * By default the best ISA the CPU supports is used. The environment variable
 * FOVEA_ISA=scalar|avx2|avx512|avx512bf16|amx|neon, read once at the first kernel call, overrides
 * that default; a value that is unknown or that the CPU does not support is
 * ignored (fovea_kernels_isa_name() then shows what is used instead).
 */

/**
 * Forces every later kernel call in the process to use the variants of one ISA.
 * `name` is an ISA name, or "auto" / NULL to go back to the default choice
 * (FOVEA_ISA if set and usable, else the best supported).
 * Returns FOVEA_STATUS_UNKNOWN_ISA or FOVEA_STATUS_UNSUPPORTED_ISA (and changes
 * nothing) if the name is not usable.
 */
fovea_status fovea_kernels_set_isa(const char *name);

/** The name of the ISA the kernels use now ("scalar", "avx2", "avx512", "avx512bf16", "amx" or "neon"). */
const char *fovea_kernels_isa_name(void);

/**
 * The name of the ISA the kernels use when nothing forces one: FOVEA_ISA if set
 * and usable, else the best the CPU supports. fovea_kernels_set_isa does not
 * change it. Fovea's Swift SIMD backend picks its own kernels from this, so
 * one detection and one variable (FOVEA_ISA; "scalar" is its "generic") rule both.
 */
const char *fovea_kernels_default_isa_name(void);

/** 1 if `name` is an ISA name this CPU and build can run, else 0 (also for NULL). */
int fovea_kernels_isa_supported(const char *name);

/**
 * On AArch64, the optional extensions beyond NEON that the CPU and OS report
 * (Linux HWCAP / HWCAP2), as a static string of space-separated names in this
 * order: "dotprod" (SDOT/UDOT), "bf16" (BFDOT, BFMMLA), "i8mm" (SMMLA); "" for
 * none. NULL off AArch64. For reports: no kernel uses them yet.
 */
const char *fovea_kernels_arm_features(void);

/**
 * For reports only: OpenMP's default team size (OMP_NUM_THREADS, else one per
 * core; without OpenMP, the online cores). Kernels do not use it: each call
 * takes its own thread count.
 */
int fovea_kernels_num_threads(void);

/** 1 if the library was compiled with OpenMP (which fovea_threadpool_default then uses), else 0. */
int fovea_kernels_has_openmp(void);

/* ------------------------------------------------------------------------ */
/* Fused activations                                                        */
/* ------------------------------------------------------------------------ */

/** An activation applied to each output while it is still in registers. */
typedef enum fovea_activation_kind {
    FOVEA_ACTIVATION_NONE = 0,
    /** x > 0 ? x : 0 (NaN gives 0, as ONNX Relu in Fovea's reference backend) */
    FOVEA_ACTIVATION_RELU = 1,
    /** min(max(x, min), max): ReLU6 is min 0, max 6. */
    FOVEA_ACTIVATION_CLIP = 2,
    /** x < 0 ? alpha * x : x */
    FOVEA_ACTIVATION_LEAKY_RELU = 3
} fovea_activation_kind;

/**
 * A fused activation. `min`/`max` are read for CLIP only, `alpha` for
 * LEAKY_RELU only. NaN inputs stay NaN for every kind but RELU.
 */
typedef struct fovea_activation {
    fovea_activation_kind kind;
    float min;
    float max;
    float alpha;
} fovea_activation;

/* ------------------------------------------------------------------------ */
/* 2-D pooling                                                              */
/* ------------------------------------------------------------------------ */

/**
 * The shape of a 2-D max or average pooling over NCHW float32.
 *
 * x is batch × channels × input_height × input_width and
 * y is batch × channels × output_height × output_width.
 *
 * Output (oh, ow) reads the window of taps (kh, kw), 0 <= kh < kernel_height,
 * 0 <= kw < kernel_width, at input row oh*stride_height - pad_top + kh*dilation_height
 * and column ow*stride_width - pad_left + kw*dilation_width; taps outside the
 * input are padding. The caller computes the output size (floor or ceil mode);
 * pad_bottom / pad_right only matter for count_include_pad.
 * A window may cover only padding (pads at least as large as the window, or an
 * output larger than the input needs): it then gives -FLT_MAX for max pooling
 * and 0 for average pooling, as FoveaCore's reference backend (and onnxruntime)
 * does; no status is returned for it.
 */
typedef struct fovea_pool2d_params {
    size_t batch;
    size_t channels;
    size_t input_height;
    size_t input_width;
    size_t output_height;
    size_t output_width;
    size_t kernel_height;
    size_t kernel_width;
    size_t stride_height;
    size_t stride_width;
    /** Spacing of the taps; 1 is a dense window. */
    size_t dilation_height;
    size_t dilation_width;
    size_t pad_top;
    size_t pad_left;
    size_t pad_bottom;
    size_t pad_right;
    /**
     * Average pooling only. 0: divide by the number of taps inside the input.
     * Non-zero: divide by the number of taps inside the padded input (input plus
     * pads; taps beyond pad_bottom / pad_right, which ceil mode can create, are
     * not counted), the padding counting as zeros.
     */
    int count_include_pad;
} fovea_pool2d_params;

/*
 * Both 2-D poolings share the N×C planes out over up to `threadpool->threads`
 * threads of the caller's pool (NULL, 0 or 1 = the calling thread only; small
 * jobs always run on the calling thread). The count is per call: concurrent calls with different
 * counts each get theirs. The result does not depend on it.
 */

/**
 * Max pooling: each output is the largest input in its window, exactly as the
 * reference backend computes it: an accumulator starts at -FLT_MAX and each
 * tap inside the input, in tap order (row by row, left to right), replaces it
 * if `x > acc`. So NaN is ignored (never larger), -inf never beats -FLT_MAX,
 * and of equal values the first stays (+0 then -0 gives +0, -0 then +0 gives
 * -0). A window with nothing but NaN, -inf or padding gives -FLT_MAX. Every
 * ISA variant gives the same bits.
 */
fovea_status fovea_maxpool2d_f32(const fovea_pool2d_params *params, const float *x, float *y, const fovea_threadpool *threadpool);

/**
 * Average pooling: each output is the sum of its window's inputs, added in
 * tap order (row by row) from +0, divided by the tap count (see
 * count_include_pad). NaN and infinities propagate (they are summed); a
 * window with no input element gives +0 (also with count_include_pad).
 */
fovea_status fovea_avgpool2d_f32(const fovea_pool2d_params *params, const float *x, float *y, const fovea_threadpool *threadpool);

/* ------------------------------------------------------------------------ */
/* Global pooling                                                           */
/* ------------------------------------------------------------------------ */

/*
 * Global pooling reduces each plane to one value: x is batch × channels ×
 * spatial_size (any spatial rank, flattened: H*W for images), y is
 * batch × channels. spatial_size must be at least 1 when batch*channels > 0.
 * `threadpool`: as for 2-D pooling (the planes are shared out; NULL, 0 or 1 =
 * the calling thread only).
 */

/** The mean of each plane, summed in double precision (NaN and infinities propagate). */
fovea_status fovea_global_avgpool_f32(size_t batch, size_t channels, size_t spatial_size,
                                      const float *x, float *y, const fovea_threadpool *threadpool);

/**
 * The maximum of each plane, exactly as the reference backend's fold
 * (Swift.max from -inf, in memory order): NaN is ignored, a plane of nothing
 * but NaN and -inf gives -inf (not -FLT_MAX, unlike fovea_maxpool2d_f32), and
 * of equal values the last stays (a zero maximum has the sign of the plane's
 * last zero). Every ISA variant gives the same bits.
 */
fovea_status fovea_global_maxpool_f32(size_t batch, size_t channels, size_t spatial_size,
                                      const float *x, float *y, const fovea_threadpool *threadpool);

#ifdef __cplusplus
}
#endif

/* The other kernel families, one header each. */
#include "fovea_gemm.h"
#include "fovea_conv.h"
#include "fovea_winograd.h"
#include "fovea_depthwise.h"
#include "fovea_conv_smallc.h"
#include "fovea_conv_maxpool.h"
#include "fovea_matmul.h"
#include "fovea_transpose.h"
#include "fovea_elementwise.h"
#include "fovea_unary.h"
#include "fovea_peak.h"
#include "fovea_bf16.h"
#include "fovea_qconv.h"
#include "fovea_qpool.h"

#endif /* FOVEA_KERNELS_H */
