/*
 * The GEMM convolution (1×1 on the input planes, im2col otherwise) against a
 * naive one in double, for every ISA: random shapes with ragged channel
 * counts, odd sizes, pads, strides, dilations, groups, batches, strided
 * outputs whose gaps must stay untouched, biases and activations, a
 * residual the output starts from (fovea_conv2d_add_f32); batches of small
 * planes, whose column panels straddle images (one GEMM over N·OH·OW
 * columns); 1×1 layers with few input channels (K 1-64) on planes of many
 * column panels, read in place; the small-plane shapes that run with pixels as rows; the
 * stride-2 three-tap row gather of 3×3 stride-2 im2col, per ISA, against
 * its definition; and bad arguments.
 */
#include "support/reference.h"
#include "support/test_support.h"
#include "../src/operators/conv2d.h"

static const double tolerance = 2e-6; /* relative to Σ|w·x| per output: float sums reordered */

static size_t output_extent(size_t in, size_t kernel, size_t stride, size_t dilation, size_t pad_begin,
                            size_t pad_end) {
    const long span = (long)(dilation * (kernel - 1) + 1);
    const long room = (long)(in + pad_begin + pad_end) - span;
    return room < 0 ? 0 : (size_t)(room / (long)stride + 1);
}

/* Every fifth shape is a fully connected layer (1×1 input and kernel), which runs as a matrix-vector product. */
static fovea_conv2d_params random_params(test_rng *rng) {
    fovea_conv2d_params p;
    memset(&p, 0, sizeof p);
    if (rng_int(rng, 0, 4) == 0) {
        p.groups = rng_int(rng, 0, 3) == 0 ? 2 : 1;
        p.channels = p.groups * (size_t)rng_int(rng, 1, 300);
        p.output_channels = p.groups * (size_t)rng_int(rng, 1, 70);
        p.batch = (size_t)rng_int(rng, 1, 9);
        p.input_height = p.input_width = p.output_height = p.output_width = 1;
        p.kernel_height = p.kernel_width = p.stride_height = p.stride_width = p.dilation_height = p.dilation_width = 1;
        return p;
    }
    for (;;) {
        p.groups = rng_int(rng, 0, 4) == 0 ? (size_t)rng_int(rng, 2, 3) : 1;
        p.channels = p.groups * (size_t)rng_int(rng, 1, 20);
        p.output_channels = p.groups * (size_t)rng_int(rng, 1, 40);
        p.batch = rng_int(rng, 0, 3) == 0 ? (size_t)rng_int(rng, 4, 9) : (size_t)rng_int(rng, 1, 3);
        p.input_height = (size_t)rng_int(rng, 1, 23);
        p.input_width = (size_t)rng_int(rng, 1, 41);
        const int pointwise = rng_int(rng, 0, 2) == 0;
        /* Sometimes deeper than one reduction block (512), so that later blocks accumulate too. */
        if (pointwise && p.groups == 1 && rng_int(rng, 0, 5) == 0) p.channels = (size_t)rng_int(rng, 500, 700);
        p.kernel_height = pointwise ? 1 : (size_t)rng_int(rng, 1, 5);
        p.kernel_width = pointwise ? 1 : (size_t)rng_int(rng, 1, 5);
        p.stride_height = pointwise ? 1 : (size_t)rng_int(rng, 1, 3);
        p.stride_width = pointwise ? 1 : (size_t)rng_int(rng, 1, 3);
        p.dilation_height = pointwise ? 1 : (size_t)rng_int(rng, 1, 2);
        p.dilation_width = pointwise ? 1 : (size_t)rng_int(rng, 1, 2);
        p.pad_top = pointwise ? 0 : (size_t)rng_int(rng, 0, 2);
        p.pad_left = pointwise ? 0 : (size_t)rng_int(rng, 0, 2);
        const size_t pad_bottom = pointwise ? 0 : (size_t)rng_int(rng, 0, 2);
        const size_t pad_right = pointwise ? 0 : (size_t)rng_int(rng, 0, 2);
        p.output_height = output_extent(p.input_height, p.kernel_height, p.stride_height, p.dilation_height,
                                        p.pad_top, pad_bottom);
        p.output_width = output_extent(p.input_width, p.kernel_width, p.stride_width, p.dilation_width,
                                       p.pad_left, pad_right);
        if (p.output_height > 0 && p.output_width > 0) return p;
    }
}

/* One shape with random data, threads, bias, activation, output stride and residual, against reference_conv2d. */
static void check_shape(const char *isa, test_rng *rng, const fovea_conv2d_params p, int trial) {
    const fovea_activation activations[] = {{FOVEA_ACTIVATION_NONE, 0, 0, 0}, {FOVEA_ACTIVATION_RELU, 0, 0, 0},
                                            {FOVEA_ACTIVATION_CLIP, -0.5f, 0.5f, 0},
                                            {FOVEA_ACTIVATION_LEAKY_RELU, 0, 0, 0.25f}};
    {
        const size_t gc = p.channels / p.groups;
        const size_t x_count = p.batch * p.channels * p.input_height * p.input_width;
        const size_t w_count = p.output_channels * gc * p.kernel_height * p.kernel_width;
        const size_t image = p.output_channels * p.output_height * p.output_width;
        const size_t y_stride = image + (size_t)rng_int(rng, 0, 2) * (size_t)rng_int(rng, 0, 50);
        const size_t threads = (size_t)rng_int(rng, 1, 3);
        const int bias_mode = rng_int(rng, 0, 2); /* 0 none, 1 packed, 2 at run time */
        const fovea_activation *activation = &activations[rng_int(rng, 0, 3)];
        const int add = rng_int(rng, 0, 2) == 0; /* y starts from a residual */

        fenced_buffer x = fenced_alloc(x_count, trial % 2);
        float *w = malloc(w_count * sizeof(float)), *bias = malloc(p.output_channels * sizeof(float));
        for (size_t i = 0; i < x_count; i++) x.data[i] = rng_float(rng);
        for (size_t i = 0; i < w_count; i++) w[i] = rng_float(rng);
        for (size_t i = 0; i < p.output_channels; i++) bias[i] = rng_float(rng);

        const size_t packed_bytes = fovea_conv2d_packed_size(&p);
        void *packed = malloc(packed_bytes);
        CHECK_STATUS(fovea_conv2d_pack(&p, w, bias_mode == 1 ? bias : NULL, packed, packed_bytes), FOVEA_STATUS_OK);
        const size_t workspace_bytes = fovea_conv2d_workspace_size(packed, threads);
        void *workspace = malloc(workspace_bytes);
        guarded_buffer y = guarded_alloc((p.batch - 1) * y_stride + image, 0);
        float *residual = malloc(p.batch * image * sizeof(float));
        for (size_t i = 0; i < p.batch * image; i++) residual[i] = 4 * rng_float(rng);
        if (add) {
            for (size_t n = 0; n < p.batch; n++) memcpy(y.data + n * y_stride, residual + n * image, image * sizeof(float));
            CHECK_STATUS(fovea_conv2d_add_f32(&p, packed, x.data, y.data, y_stride, bias_mode == 2 ? bias : NULL,
                                              activation, workspace, workspace_bytes, test_pool(threads)), FOVEA_STATUS_OK);
        } else {
            CHECK_STATUS(fovea_conv2d_f32(&p, packed, x.data, y.data, y_stride, bias_mode == 2 ? bias : NULL, activation,
                                          workspace, workspace_bytes, test_pool(threads)), FOVEA_STATUS_OK);
        }

        double *expected = malloc(p.batch * image * sizeof(double)), *scale = malloc(p.batch * image * sizeof(double));
        reference_conv2d(&p, w, bias_mode ? bias : NULL, x.data, expected, scale);
        double worst = 0;
        int gap_written = 0;
        for (size_t n = 0; n < p.batch; n++) {
            for (size_t i = 0; i < image; i++) {
                const double start = add ? residual[n * image + i] : 0;
                const double want = test_activation(activation, start + expected[n * image + i]);
                const double error = fabs(y.data[n * y_stride + i] - want) / (scale[n * image + i] + fabs(start) + 1e-3);
                if (!(error <= worst)) worst = error;
            }
            if (n + 1 < p.batch)
                for (size_t i = image; i < y_stride; i++) gap_written |= float_bits(y.data[n * y_stride + i]) != guard_bits;
        }
        CHECK(worst <= tolerance, "%s %s%s trial %d (N %zu C %zu M %zu G %zu %zux%zu k %zux%zu s %zu,%zu d %zu,%zu p %zu,%zu): error %g",
              isa, fovea_conv2d_kernel_name(packed), add ? " add" : "", trial, p.batch, p.channels, p.output_channels, p.groups, p.input_height,
              p.input_width, p.kernel_height, p.kernel_width, p.stride_height, p.stride_width, p.dilation_height,
              p.dilation_width, p.pad_top, p.pad_left, worst);
        CHECK(!gap_written && guards_intact(&y), "%s trial %d: wrote outside the output images", isa, trial);
        free(expected), free(scale), free(workspace), free(packed), free(w), free(bias), free(residual);
        guarded_free(&y);
        fenced_free(&x);
    }
}

static void check_random_shapes(const char *isa, test_rng *rng) {
    for (int trial = 0; trial < test_cases(250); trial++) check_shape(isa, rng, random_params(rng), trial);
}

/*
 * 1×1 stride-1 layers with few input channels (K 1-64) on planes of many
 * column panels, which read the input planes in place (ResNet-50's K 64
 * layers, MobileNetV2's expand layers): odd planes (ragged last panels),
 * batches of 2 (panels straddling images), each shape several times so that
 * the random threads (1-3), activations, bias and residual vary.
 */
static void check_pointwise_small_k(const char *isa, test_rng *rng) {
    /* batch, K, H, W, M */
    static const size_t shapes[][5] = {
        {1, 1, 9, 11, 8},   {2, 2, 17, 19, 13},  {1, 3, 33, 31, 24}, {2, 7, 9, 11, 17},  {1, 16, 28, 28, 96},
        {2, 16, 15, 17, 9}, {1, 24, 19, 23, 40}, {2, 32, 13, 29, 16}, {1, 33, 11, 13, 7}, {2, 48, 21, 9, 33},
        {1, 64, 56, 56, 24}, {2, 64, 15, 15, 64}, {1, 63, 23, 27, 31},
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const size_t *s = shapes[i];
        fovea_conv2d_params p;
        memset(&p, 0, sizeof p);
        p.batch = s[0], p.channels = s[1], p.input_height = p.output_height = s[2];
        p.input_width = p.output_width = s[3], p.output_channels = s[4], p.groups = 1;
        p.kernel_height = p.kernel_width = p.stride_height = p.stride_width = 1;
        p.dilation_height = p.dilation_width = 1;
        for (int repeat = 0; repeat < test_cases(6); repeat++) check_shape(isa, rng, p, 2000 + (int)i * 6 + repeat);
    }
}

/*
 * 3×3 stride-2 convolutions without left padding, which AVX-512 packs a whole
 * output row at a time (SqueezeNet's conv1): rows narrower and wider than a
 * column panel (pieces crossing panel boundaries), odd and even widths, right,
 * top and bottom padding (taps past the row or above/below the plane are
 * zeros), batches whose images meet inside a panel, groups, and conv1 itself.
 */
static void check_3x3_stride2_rows(const char *isa, test_rng *rng) {
    for (int trial = 0; trial < test_cases(80); trial++) {
        fovea_conv2d_params p;
        memset(&p, 0, sizeof p);
        const int squeezenet = trial == 0;
        p.groups = !squeezenet && rng_int(rng, 0, 3) == 0 ? 2 : 1;
        p.channels = squeezenet ? 3 : p.groups * (size_t)rng_int(rng, 1, 6);
        p.output_channels = squeezenet ? 64 : p.groups * (size_t)rng_int(rng, 1, 20);
        p.batch = squeezenet ? 1 : (size_t)rng_int(rng, 1, 3);
        p.input_height = squeezenet ? 224 : (size_t)rng_int(rng, 1, 20);
        p.input_width = squeezenet ? 224 : (size_t)rng_int(rng, 1, 150);
        p.kernel_height = p.kernel_width = 3;
        p.stride_height = p.stride_width = 2;
        p.dilation_height = p.dilation_width = 1;
        p.pad_top = squeezenet ? 0 : (size_t)rng_int(rng, 0, 2);
        const size_t pad_bottom = squeezenet ? 0 : (size_t)rng_int(rng, 0, 2);
        const size_t pad_right = squeezenet ? 0 : (size_t)rng_int(rng, 0, 2);
        p.output_height = output_extent(p.input_height, 3, 2, 1, p.pad_top, pad_bottom);
        p.output_width = output_extent(p.input_width, 3, 2, 1, 0, pad_right);
        if (p.output_height == 0 || p.output_width == 0) continue;
        check_shape(isa, rng, p, 2000 + trial);
    }
}

/*
 * Batches of the small planes ResNet and MobileNet end with (7×7, 14×14,
 * 1×1): many column panels hold the end of one image and the start of the
 * next, and deep reductions (K > 512) split those panels' k-blocks.
 */
static void check_batched_small_planes(const char *isa, test_rng *rng) {
    /* batch, C, H, W, M, groups, kernel, stride, pad */
    static const size_t shapes[][9] = {
        {8, 64, 7, 7, 40, 1, 1, 1, 0},  {8, 24, 7, 7, 19, 1, 3, 1, 1},   {8, 600, 7, 7, 17, 1, 1, 1, 0},
        {5, 33, 13, 13, 9, 1, 1, 2, 0}, {8, 300, 1, 1, 70, 1, 1, 1, 0},  {3, 40, 14, 14, 33, 1, 3, 1, 1},
        {8, 16, 5, 3, 12, 2, 3, 2, 1},  {7, 530, 3, 3, 20, 1, 3, 1, 1},  {8, 3, 23, 23, 16, 1, 7, 2, 3},
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const size_t *s = shapes[i];
        fovea_conv2d_params p;
        memset(&p, 0, sizeof p);
        p.batch = s[0], p.channels = s[1], p.input_height = s[2], p.input_width = s[3];
        p.output_channels = s[4], p.groups = s[5];
        p.kernel_height = p.kernel_width = s[6];
        p.stride_height = p.stride_width = s[7];
        p.dilation_height = p.dilation_width = 1;
        p.pad_top = p.pad_left = s[8];
        p.output_height = output_extent(p.input_height, s[6], s[7], 1, s[8], s[8]);
        p.output_width = output_extent(p.input_width, s[6], s[7], 1, s[8], s[8]);
        for (int repeat = 0; repeat < test_cases(4); repeat++) check_shape(isa, rng, p, 1000 + (int)i * 4 + repeat);
    }
}

/*
 * The shapes that run with pixels as rows on AVX-512 (small planes, K ≥ 128,
 * channels filling 32-lane panels): every plane of 1-80 pixels, 7×7, 13×13
 * and 14×14, 1×1 in place and im2col (3×3 stride 1 and 2, dilated 3×3,
 * strided 1×1; output rows wider than a pixel group pack channel by
 * channel, narrower ones group by group), batches, ragged
 * channel counts (the last panel part full). On AVX-512 the packed weights
 * must name that kernel, so the path cannot silently go untested.
 */
static void check_pixel_rows(const char *isa, test_rng *rng) {
    static const size_t planes[][2] = {{7, 7}, {13, 13}, {14, 14}, {1, 1}, {2, 3}, {9, 9}, {8, 10}, {5, 16}, {28, 28}};
    for (int trial = 0; trial < test_cases(160); trial++) {
        fovea_conv2d_params p;
        memset(&p, 0, sizeof p);
        p.groups = 1;
        p.batch = trial % 4 == 3 ? (size_t)rng_int(rng, 2, 5) : 1;
        if (trial < 80) {
            /* 1..80 output pixels on one row or a near-square plane */
            const size_t pixels = (size_t)trial + 1;
            p.input_height = trial % 2 == 0 ? 1 : (size_t)rng_int(rng, 1, 4);
            p.input_width = (pixels + p.input_height - 1) / p.input_height;
        } else {
            const size_t *plane = planes[trial % 9];
            p.input_height = plane[0], p.input_width = plane[1];
        }
        /* 0: 1×1 in place, 1: 3×3 pad 1, 2: 1×1 stride 2, 3: 3×3 stride 2 pad 1, 4: 3×3 dilation 2 pad 2 */
        const int kind = rng_int(rng, 0, 4);
        const int three = kind == 1 || kind == 3 || kind == 4;
        p.kernel_height = p.kernel_width = three ? 3 : 1;
        p.stride_height = p.stride_width = kind == 2 || kind == 3 ? 2 : 1;
        p.pad_top = p.pad_left = kind == 4 ? 2 : three ? 1 : 0;
        p.dilation_height = p.dilation_width = kind == 4 ? 2 : 1;
        p.channels = (size_t)rng_int(rng, three ? 15 : 128, three ? 60 : 700);
        p.output_channels = rng_int(rng, 0, 1) ? 32 * (size_t)rng_int(rng, 1, 5) : (size_t)rng_int(rng, 290, 320);
        p.output_height =
            output_extent(p.input_height, p.kernel_height, p.stride_height, p.dilation_height, p.pad_top, p.pad_top);
        p.output_width =
            output_extent(p.input_width, p.kernel_width, p.stride_width, p.dilation_width, p.pad_left, p.pad_left);
        if (strcmp(isa, "avx512") == 0 && p.batch * p.output_height * p.output_width <= 256) {
            const size_t bytes = fovea_conv2d_packed_size(&p);
            void *packed = calloc(1, bytes);
            float *w = calloc(p.output_channels * p.channels * p.kernel_height * p.kernel_width, sizeof(float));
            CHECK_STATUS(fovea_conv2d_pack(&p, w, NULL, packed, bytes), FOVEA_STATUS_OK);
            CHECK(strcmp(fovea_conv2d_kernel_name(packed), "f32_gemm_t8x32_avx512") == 0,
                  "trial %d: %s instead of the pixel-rows kernel", trial, fovea_conv2d_kernel_name(packed));
            free(packed), free(w);
        }
        check_shape(isa, rng, p, 2000 + trial);
    }
}

/*
 * 1×1 stride-2 convolutions on output rows of 16+ pixels, whose AVX-512
 * 32-column panels are gathered half a panel per vector
 * (im2col-pack-stride2-panels-avx512.c): pads 0-1 (padding lanes zeroed),
 * odd and even input extents, half panels on one or two rows and across
 * images (batches 1-3), a ragged last panel, groups, threads (check_shape:
 * 1-3). The input buffer ends at a guard page every other trial.
 */
static void check_stride2_panels(const char *isa, test_rng *rng) {
    for (int trial = 0; trial < test_cases(60); trial++) {
        fovea_conv2d_params p;
        memset(&p, 0, sizeof p);
        p.groups = trial % 5 == 4 ? 2 : 1;
        p.batch = (size_t)rng_int(rng, 1, 3);
        p.stride_height = p.stride_width = 2;
        p.kernel_height = p.kernel_width = 1;
        p.dilation_height = p.dilation_width = 1;
        p.pad_top = (size_t)rng_int(rng, 0, 1);
        p.pad_left = (size_t)rng_int(rng, 0, 1);
        p.input_width = (size_t)rng_int(rng, 31, 70);
        p.input_height = (size_t)rng_int(rng, 1, 30);
        p.output_width = output_extent(p.input_width, 1, 2, 1, p.pad_left, p.pad_left);
        p.output_height = output_extent(p.input_height, 1, 2, 1, p.pad_top, p.pad_top);
        p.channels = p.groups * (size_t)rng_int(rng, 16, 80);
        p.output_channels = p.groups * (size_t)rng_int(rng, 1, 40);
        check_shape(isa, rng, p, 4000 + trial);
    }
}

/*
 * Stride-2 convolutions on pixel rows whose AVX-512 panels are gathered
 * straight from the input (pixel-groups-stride2-avx512.c): 1×1 and 3×3 with
 * pad 0 and 1 (every tap's lanes in padding zeroed), dilation 2 for 3×3, odd
 * and even input extents (the last input column read or not), output rows of
 * 7-16 pixels, so groups of 7-8 pixels start anywhere on a row and span one
 * or two rows, batches 1-2, threads (check_shape: 1-3). The input buffer ends
 * at a guard page every other trial, so a load past it faults.
 */
static void check_pixel_rows_stride2(const char *isa, test_rng *rng) {
    for (int trial = 0; trial < test_cases(120); trial++) {
        fovea_conv2d_params p;
        memset(&p, 0, sizeof p);
        p.groups = 1;
        p.batch = trial % 3 == 2 ? 2 : 1;
        p.stride_height = p.stride_width = 2;
        const size_t kernel = trial % 2 == 0 ? 1 : 3;
        p.kernel_height = p.kernel_width = kernel;
        p.dilation_height = p.dilation_width = kernel == 3 && trial % 10 == 9 ? 2 : 1;
        p.pad_top = (size_t)rng_int(rng, 0, 1);
        p.pad_left = (size_t)rng_int(rng, 0, 1);
        /* Input extents drawn until the output has rows of 7-16 pixels and at most 256 pixels over the batch. */
        do {
            p.input_width = (size_t)rng_int(rng, 12, 34);
            p.input_height = (size_t)rng_int(rng, 1, 40);
            p.output_width = output_extent(p.input_width, kernel, 2, p.dilation_width, p.pad_left, p.pad_left);
            p.output_height = output_extent(p.input_height, kernel, 2, p.dilation_height, p.pad_top, p.pad_top);
        } while (p.output_width < 7 || p.output_width > 16 || p.output_height < 1 ||
                 p.batch * p.output_height * p.output_width > 256);
        p.channels = (size_t)rng_int(rng, kernel == 1 ? 128 : 15, kernel == 1 ? 300 : 40);
        p.output_channels = 32 * (size_t)rng_int(rng, 1, 3) + (trial % 4 == 0 ? 0 : (size_t)rng_int(rng, 0, 31));
        if (strcmp(isa, "avx512") == 0 && 10 * p.output_channels >= 9 * ((p.output_channels + 31) / 32 * 32)) {
            const size_t bytes = fovea_conv2d_packed_size(&p);
            void *packed = calloc(1, bytes);
            float *w = calloc(p.output_channels * p.channels * kernel * kernel, sizeof(float));
            CHECK_STATUS(fovea_conv2d_pack(&p, w, NULL, packed, bytes), FOVEA_STATUS_OK);
            CHECK(strcmp(fovea_conv2d_kernel_name(packed), "f32_gemm_t8x32_avx512") == 0,
                  "trial %d: %s instead of the pixel-rows kernel", trial, fovea_conv2d_kernel_name(packed));
            free(packed), free(w);
        }
        check_shape(isa, rng, p, 3000 + trial);
    }
}

/*
 * fovea_gather_stride2_taps3 (scalar and AVX-512): dst_kw[q] = row[start + 2q + kw − 1],
 * zero outside the row, for widths 1-70, every even start up to past the
 * row's end and counts 0-40: exact, nothing read outside the row (NaN
 * there would show), nothing written past count.
 */
static void check_stride2_taps3(void) {
    enum { SPAN = 200 };
    fovea_gather_stride2_taps3_fn variants[2] = {fovea_f32_gather_stride2_taps3__scalar, NULL};
    const char *names[2] = {"scalar", "avx512"};
#if FOVEA_HAVE_X86_VARIANTS
    if (fovea_kernels_isa_supported("avx512")) variants[1] = fovea_f32_gather_stride2_taps3__avx512;
#endif
    float buffer[SPAN], dst[3][64];
    for (int v = 0; v < 2; v++) {
        if (variants[v] == NULL) continue;
        int failures = 0;
        for (size_t width = 1; width <= 70; width++) {
            /* The row sits inside NaNs: a read outside it makes a NaN output. */
            for (size_t i = 0; i < SPAN; i++) buffer[i] = NAN;
            const float *row = buffer + 40;
            for (size_t i = 0; i < width; i++) buffer[40 + i] = (float)(i + 1);
            for (size_t start = 0; start <= width + 2; start += 2) {
                for (size_t count = 0; count <= 40; count++) {
                    for (size_t kw = 0; kw < 3; kw++)
                        for (size_t q = 0; q < 64; q++) dst[kw][q] = -1.0f;
                    variants[v](dst[0], dst[1], dst[2], row, width, start, count);
                    for (size_t kw = 0; kw < 3; kw++) {
                        for (size_t q = 0; q < 64; q++) {
                            const size_t column = start + 2 * q + kw; /* input column + 1 */
                            const float want = q >= count ? -1.0f
                                               : column >= 1 && column - 1 < width ? (float)column
                                                                                   : 0.0f;
                            failures += !same_float(dst[kw][q], want);
                        }
                    }
                }
            }
        }
        CHECK(failures == 0, "fovea_gather_stride2_taps3 %s: %d wrong values", names[v], failures);
    }
}

static void check_bad_arguments(void) {
    fovea_conv2d_params p = {1, 4, 5, 5, 8, 1, 5, 5, 3, 3, 1, 1, 1, 1, 1, 1};
    float w[8 * 4 * 9] = {0}, x[4 * 25] = {0}, y[8 * 25];
    const size_t packed_bytes = fovea_conv2d_packed_size(&p);
    void *packed = malloc(packed_bytes);
    CHECK_STATUS(fovea_conv2d_pack(&p, w, NULL, packed, packed_bytes), FOVEA_STATUS_OK);
    CHECK_STATUS(fovea_conv2d_pack(&p, w, NULL, packed, packed_bytes - 1), FOVEA_STATUS_BUFFER_TOO_SMALL);
    CHECK_STATUS(fovea_conv2d_pack(&p, NULL, NULL, packed, packed_bytes), FOVEA_STATUS_NULL_POINTER);
    const size_t workspace_bytes = fovea_conv2d_workspace_size(packed, 1);
    void *workspace = malloc(workspace_bytes);
    for (size_t i = 0; i < 8 * 25; i++) y[i] = 7.0f;
    CHECK_STATUS(fovea_conv2d_f32(&p, packed, x, y, 8 * 25, NULL, NULL, workspace, workspace_bytes - 4, test_pool(1)),
                 FOVEA_STATUS_BUFFER_TOO_SMALL);
    CHECK_STATUS(fovea_conv2d_f32(&p, packed, x, y, 8 * 25 - 1, NULL, NULL, workspace, workspace_bytes, test_pool(1)),
                 FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(fovea_conv2d_f32(&p, packed, NULL, y, 8 * 25, NULL, NULL, workspace, workspace_bytes, test_pool(1)),
                 FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_conv2d_add_f32(&p, packed, x, NULL, 8 * 25, NULL, NULL, workspace, workspace_bytes, test_pool(1)),
                 FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_conv2d_add_f32(&p, packed, x, y, 8 * 25, NULL, NULL, workspace, workspace_bytes - 4, test_pool(1)),
                 FOVEA_STATUS_BUFFER_TOO_SMALL);
    fovea_conv2d_params other = p;
    other.pad_top = 0;
    CHECK_STATUS(fovea_conv2d_f32(&other, packed, x, y, 8 * 25, NULL, NULL, workspace, workspace_bytes, test_pool(1)),
                 FOVEA_STATUS_PACKING_MISMATCH);
    CHECK_STATUS(fovea_conv2d_f32(&p, x, x, y, 8 * 25, NULL, NULL, workspace, workspace_bytes, test_pool(1)),
                 FOVEA_STATUS_PACKING_MISMATCH);
    int untouched = 1;
    for (size_t i = 0; i < 8 * 25; i++) untouched &= y[i] == 7.0f;
    CHECK(untouched, "a failed call wrote to y");
    other = p;
    other.groups = 3;
    CHECK_STATUS(fovea_conv2d_check(&other), FOVEA_STATUS_INVALID_PARAMETER);
    other = p;
    other.stride_width = 0;
    CHECK(fovea_conv2d_packed_size(&other) == 0, "an invalid shape has a packed size");
    other = p;
    other.channels = other.output_channels = (size_t)1 << 24;
    other.input_height = other.input_width = other.output_height = other.output_width = (size_t)1 << 24;
    CHECK_STATUS(fovea_conv2d_check(&other), FOVEA_STATUS_TOO_LARGE);
    CHECK(fovea_conv2d_workspace_size(x, 1) == 0 && fovea_conv2d_kernel_name(x) == NULL, "garbage taken as packed weights");
    free(packed), free(workspace);
}

int main(void) {
    test_rng rng = {7};
    for (int isa = 0; isa < test_isa_count; isa++) {
        if (fovea_kernels_set_isa(test_isas[isa]) != FOVEA_STATUS_OK) {
            printf("skipping %s (not supported here)\n", test_isas[isa]);
            continue;
        }
        check_random_shapes(test_isas[isa], &rng);
        check_batched_small_planes(test_isas[isa], &rng);
        check_pointwise_small_k(test_isas[isa], &rng);
        check_3x3_stride2_rows(test_isas[isa], &rng);
        check_pixel_rows(test_isas[isa], &rng);
        check_pixel_rows_stride2(test_isas[isa], &rng);
        check_stride2_panels(test_isas[isa], &rng);
    }
    fovea_kernels_set_isa("auto");
    check_stride2_taps3();
    check_bad_arguments();
    return test_finish("conv");
}
