/*
 * SqueezeNet 1.1's layer chain through the public C API, on the ISA this
 * machine picks (NEON under qemu on aarch64): conv1 3×3/2 + ReLU, max pool
 * 3×3/2, the eight fire modules (squeeze 1×1 + ReLU; expand 1×1 and 3×3 +
 * ReLU written into the two channel halves of one tensor, as a Concat is
 * planned), two more max pools, conv10 1×1 + ReLU, global average pool and
 * softmax. The real channel counts and 1000 classes, at a smaller picture (127
 * pixels, 63 under emulation) so the chain runs in seconds under qemu, with
 * seeded He-initialized weights. Half the expand 3×3 layers run Winograd
 * (F2, F4, F6 in turn), the others the GEMM convolution.
 *
 * Checked: each layer against the naive reference on the inputs the chain
 * gave it (convolutions within the float32 summation bound per element, or
 * the Winograd tile's tolerance; pooling bit for bit; softmax within its
 * documented bound), then the chain's class probabilities against a chain of
 * reference layers from the same picture (the errors compound: within 1e-3 of
 * the largest logit, and the same top class when the reference's top two
 * differ by more than that).
 */
#include "support/reference.h"
#include "support/test_support.h"
#include "fovea_winograd.h"

enum { threads = 2, classes = 1000 };

typedef struct tensor {
    size_t channels, height, width;
    float *data;
} tensor;

static tensor tensor_make(size_t channels, size_t height, size_t width) {
    tensor t = {channels, height, width, calloc(channels * height * width, sizeof(float))};
    return t;
}

static size_t plane(const tensor *t) { return t->height * t->width; }

/* The chain under test and the chain of reference layers, side by side. */
typedef struct chain {
    tensor fovea, reference;
} chain;

static float *he_weights(test_rng *rng, size_t count, size_t fan_in) {
    float *w = malloc(count * sizeof(float));
    const double scale = sqrt(6.0 / (double)fan_in); /* uniform ±scale: variance 2/fan_in */
    for (size_t i = 0; i < count; i++) w[i] = (float)(scale * rng_float(rng));
    return w;
}

static fovea_conv2d_params conv_params(const tensor *x, size_t outputs, size_t k, size_t stride, size_t pad) {
    fovea_conv2d_params p;
    memset(&p, 0, sizeof p);
    p.batch = 1, p.channels = x->channels, p.input_height = x->height, p.input_width = x->width;
    p.output_channels = outputs, p.groups = 1;
    p.kernel_height = p.kernel_width = k;
    p.stride_height = p.stride_width = stride;
    p.dilation_height = p.dilation_width = 1;
    p.pad_top = p.pad_left = pad;
    p.output_height = (x->height + 2 * pad - k) / stride + 1;
    p.output_width = (x->width + 2 * pad - k) / stride + 1;
    return p;
}

/*
 * One convolution + ReLU, into channels [first, first + outputs) of y (whose
 * channel count may be larger: a Concat's halves). winograd: 0 for the GEMM
 * convolution, else the tile. Checks the layer alone and runs the reference
 * chain's layer.
 */
static void convolve(test_rng *rng, const char *name, const chain *x, chain *y, size_t first, size_t outputs,
                     size_t k, size_t stride, size_t pad, int winograd) {
    const fovea_conv2d_params p = conv_params(&x->fovea, outputs, k, stride, pad);
    const size_t fan_in = p.channels * k * k;
    float *w = he_weights(rng, outputs * fan_in, fan_in);
    float *bias = malloc(outputs * sizeof(float));
    for (size_t i = 0; i < outputs; i++) bias[i] = 0.1f * rng_float(rng);
    const fovea_activation relu = {FOVEA_ACTIVATION_RELU, 0, 0, 0};
    const size_t out_plane = p.output_height * p.output_width;
    const size_t stride_y = y->fovea.channels * out_plane;
    float *target = y->fovea.data + first * out_plane;

    size_t packed_bytes = winograd ? fovea_winograd_packed_size(&p, (fovea_winograd_tile)winograd) : fovea_conv2d_packed_size(&p);
    void *packed = aligned_alloc(64, (packed_bytes + 63) / 64 * 64);
    size_t ws_bytes = 0;
    if (winograd) {
        CHECK_STATUS(fovea_winograd_pack(&p, (fovea_winograd_tile)winograd, w, bias, packed, packed_bytes), FOVEA_STATUS_OK);
        ws_bytes = fovea_winograd_workspace_size(packed, threads);
    } else {
        CHECK_STATUS(fovea_conv2d_pack(&p, w, bias, packed, packed_bytes), FOVEA_STATUS_OK);
        ws_bytes = fovea_conv2d_workspace_size(packed, threads);
    }
    void *ws = aligned_alloc(64, (ws_bytes + 63) / 64 * 64 + 64);
    if (winograd) {
        CHECK_STATUS(fovea_winograd_conv2d_f32(&p, packed, x->fovea.data, target, stride_y, NULL, &relu, ws, ws_bytes,
                                               test_pool(threads)), FOVEA_STATUS_OK);
    } else {
        CHECK_STATUS(fovea_conv2d_f32(&p, packed, x->fovea.data, target, stride_y, NULL, &relu, ws, ws_bytes,
                                      test_pool(threads)), FOVEA_STATUS_OK);
    }

    /* The layer alone: the reference on the same input. */
    const size_t count = outputs * out_plane;
    double *sum = malloc(count * sizeof(double)), *magnitude = malloc(count * sizeof(double));
    reference_conv2d(&p, w, bias, x->fovea.data, sum, magnitude);
    double largest = 0, worst = 0;
    size_t beyond = 0, first_beyond = 0;
    for (size_t i = 0; i < count; i++) {
        const double want = sum[i] > 0 ? sum[i] : 0;
        largest = fmax(largest, fabs(want));
    }
    for (size_t i = 0; i < count; i++) {
        const double want = sum[i] > 0 ? sum[i] : 0, got = target[i];
        const double error = fabs(got - want);
        /* GEMM: float32 sums of fan_in + 1 terms err by at most (fan_in + 2)·2⁻²⁴ of their magnitudes. */
        const double bound = winograd ? 0 : (double)(fan_in + 2) * 0x1p-24 * magnitude[i] + 1e-30;
        worst = fmax(worst, largest > 0 ? error / largest : error);
        if (!winograd && !(error <= bound)) {
            if (beyond++ == 0) first_beyond = i;
        }
    }
    if (winograd) {
        const double tolerance = winograd == 2 ? FOVEA_WINOGRAD_F2_TOLERANCE
                               : winograd == 4 ? FOVEA_WINOGRAD_F4_TOLERANCE : FOVEA_WINOGRAD_F6_TOLERANCE;
        CHECK(worst <= tolerance, "%s (Winograd F%d): max error %.3g of the largest output, above %.3g", name, winograd,
              worst, tolerance);
    } else {
        CHECK(beyond == 0, "%s: %zu of %zu outputs beyond the float32 bound (first %zu: %.9g, want %.9g)", name, beyond,
              count, first_beyond, (double)target[first_beyond], sum[first_beyond] > 0 ? sum[first_beyond] : 0.0);
    }

    /* The reference chain's layer, from the reference chain's input. */
    reference_conv2d(&p, w, bias, x->reference.data, sum, NULL);
    float *reference_target = y->reference.data + first * out_plane;
    for (size_t i = 0; i < count; i++) reference_target[i] = (float)(sum[i] > 0 ? sum[i] : 0);

    free(sum), free(magnitude), free(ws), free(packed), free(w), free(bias);
}

static chain chain_make(size_t channels, size_t height, size_t width) {
    chain c = {tensor_make(channels, height, width), tensor_make(channels, height, width)};
    return c;
}

static void chain_free(chain *c) { free(c->fovea.data), free(c->reference.data); }

static chain conv_layer(test_rng *rng, const char *name, chain *x, size_t outputs, size_t k, size_t stride) {
    const fovea_conv2d_params p = conv_params(&x->fovea, outputs, k, stride, 0);
    chain y = chain_make(outputs, p.output_height, p.output_width);
    convolve(rng, name, x, &y, 0, outputs, k, stride, 0, 0);
    return y;
}

/* Max pool 3×3 stride 2 (no padding): bit for bit as the reference, on the same input. */
static chain max_pool(const char *name, chain *x) {
    fovea_pool2d_params q;
    memset(&q, 0, sizeof q);
    q.batch = 1, q.channels = x->fovea.channels, q.input_height = x->fovea.height, q.input_width = x->fovea.width;
    q.kernel_height = q.kernel_width = 3, q.stride_height = q.stride_width = 2;
    q.dilation_height = q.dilation_width = 1;
    q.output_height = (q.input_height - 3) / 2 + 1, q.output_width = (q.input_width - 3) / 2 + 1;
    chain y = chain_make(q.channels, q.output_height, q.output_width);
    CHECK_STATUS(fovea_maxpool2d_f32(&q, x->fovea.data, y.fovea.data, test_pool(threads)), FOVEA_STATUS_OK);
    const size_t count = q.channels * plane(&y.fovea);
    float *want = malloc(count * sizeof(float));
    reference_pool2d(&q, x->fovea.data, want, 1);
    size_t differ = 0;
    for (size_t i = 0; i < count; i++) differ += !same_float(y.fovea.data[i], want[i]);
    CHECK(differ == 0, "%s: %zu of %zu outputs differ from the reference", name, differ, count);
    reference_pool2d(&q, x->reference.data, y.reference.data, 1);
    free(want);
    chain_free(x);
    return y;
}

/* Fire module: squeeze 1×1 + ReLU, then expand 1×1 and 3×3 (pad 1) + ReLU into the two halves of one tensor. */
static chain fire(test_rng *rng, int index, chain *x, size_t squeeze, size_t expand, int winograd) {
    char name[64];
    snprintf(name, sizeof name, "fire%d squeeze", index);
    chain s = conv_layer(rng, name, x, squeeze, 1, 1);
    chain y = chain_make(2 * expand, s.fovea.height, s.fovea.width);
    snprintf(name, sizeof name, "fire%d expand1x1", index);
    convolve(rng, name, &s, &y, 0, expand, 1, 1, 0, 0);
    snprintf(name, sizeof name, "fire%d expand3x3", index);
    convolve(rng, name, &s, &y, expand, expand, 3, 1, 1, winograd);
    chain_free(&s);
    chain_free(x);
    return y;
}

int main(void) {
    test_rng rng = {0x5EEDC4A1u};
    const size_t size = test_emulated() ? 63 : 127;
    printf("test_squeezenet_chain: ISA %s, a %zux%zu picture, %d threads\n", fovea_kernels_isa_name(), size, size,
           (int)threads);

    chain x = chain_make(3, size, size);
    for (size_t i = 0; i < 3 * size * size; i++) x.fovea.data[i] = x.reference.data[i] = rng_float(&rng);

    chain c = conv_layer(&rng, "conv1", &x, 64, 3, 2);
    chain_free(&x);
    c = max_pool("pool1", &c);
    c = fire(&rng, 2, &c, 16, 64, 4);
    c = fire(&rng, 3, &c, 16, 64, 0);
    c = max_pool("pool3", &c);
    c = fire(&rng, 4, &c, 32, 128, 2);
    c = fire(&rng, 5, &c, 32, 128, 0);
    c = max_pool("pool5", &c);
    c = fire(&rng, 6, &c, 48, 192, 6);
    c = fire(&rng, 7, &c, 48, 192, 0);
    c = fire(&rng, 8, &c, 64, 256, 4);
    c = fire(&rng, 9, &c, 64, 256, 0);
    chain logits_map = conv_layer(&rng, "conv10", &c, classes, 1, 1);
    chain_free(&c);

    /* Global average pool: the mean of each class's plane. */
    float logits[classes], reference_logits[classes], want[classes];
    CHECK_STATUS(fovea_global_avgpool_f32(1, classes, plane(&logits_map.fovea), logits_map.fovea.data, logits,
                                          test_pool(threads)), FOVEA_STATUS_OK);
    for (size_t i = 0; i < classes; i++) {
        want[i] = reference_global_average(logits_map.fovea.data + i * plane(&logits_map.fovea), plane(&logits_map.fovea));
        reference_logits[i] = reference_global_average(logits_map.reference.data + i * plane(&logits_map.reference),
                                                       plane(&logits_map.reference));
    }
    size_t differ = 0;
    for (size_t i = 0; i < classes; i++) differ += !close_float(logits[i], want[i], 1e-6);
    CHECK(differ == 0, "global average pool: %zu of %d means beyond 1e-6 of the reference", differ, classes);
    chain_free(&logits_map);

    /* Softmax over the classes, within its documented bound of the exact result. */
    float probabilities[classes];
    double exact[classes], spread[classes];
    CHECK_STATUS(fovea_softmax_f32(1, classes, 1, logits, probabilities, 0, test_pool(threads)), FOVEA_STATUS_OK);
    reference_softmax(1, classes, 1, logits, exact, spread, 0);
    size_t beyond = 0;
    for (size_t i = 0; i < classes; i++) {
        const double bound = ((double)classes + 12 + spread[i]) * 0x1p-24;
        beyond += !(fabs(probabilities[i] - exact[i]) <= bound * exact[i] + 1e-30);
    }
    float largest_logit = 0;
    for (size_t i = 0; i < classes; i++) largest_logit = fmaxf(largest_logit, fabsf(reference_logits[i]));
    CHECK(beyond == 0, "softmax: %zu of %d probabilities beyond the documented bound", beyond, classes);

    /* The whole chain against the chain of reference layers. */
    double worst = 0;
    size_t top = 0, reference_top = 0, runner_up = classes;
    for (size_t i = 0; i < classes; i++) {
        worst = fmax(worst, fabs((double)logits[i] - reference_logits[i]));
        if (logits[i] > logits[top]) top = i;
        if (reference_logits[i] > reference_logits[reference_top]) reference_top = i;
    }
    for (size_t i = 0; i < classes; i++) {
        if (i != reference_top && (runner_up == classes || reference_logits[i] > reference_logits[runner_up])) runner_up = i;
    }
    const double relative = largest_logit > 0 ? worst / largest_logit : worst;
    printf("test_squeezenet_chain: the chain's logits within %.3g of the largest reference logit (%.4g)\n", relative,
           (double)largest_logit);
    CHECK(largest_logit > 0, "the reference chain's logits are all zero: the chain tests nothing");
    CHECK(relative <= 1e-3, "the chain's logits differ from the reference chain's by %.3g of the largest", relative);
    if (reference_logits[reference_top] - reference_logits[runner_up] > 1e-3 * largest_logit) {
        CHECK(top == reference_top, "top class %zu, the reference chain's %zu", top, reference_top);
    }
    return test_finish("test_squeezenet_chain");
}
