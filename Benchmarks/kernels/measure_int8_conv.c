/*
 * Times the int8 GEMM convolution (fovea_qconv2d_run) against the float32
 * GEMM convolution (fovea_conv2d_f32, never Winograd) on ResNet-50 and
 * SqueezeNet 1.1 layer shapes, one thread, and the int8 and fp32 GEMM tiles
 * alone.
 *
 * Usage: fovea_measure_int8_conv [rounds] [int8 kernel]. Each round runs every
 * layer once in fp32 then once in int8 (alternated, so a busy neighbour slows
 * both alike), each time the median of 5 runs; the table shows the median
 * over rounds, in GOP/s (2 operations per multiply-add, as GFLOP/s). The int8
 * kernel defaults to fovea_qconv2d_default_kernel(). The tile table times
 * each tile on L1-resident panels (k 256), the best of 200 batches of 100 calls.
 */
#include "fovea_kernels.h"
#include "../../Kernels/src/configs/config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct shape {
    const char *name;
    size_t channels, outputs, size, kernel, stride;
} shape;

static const shape shapes[] = {
    {"rn50 1x1 256->64 56", 256, 64, 56, 1, 1},
    {"rn50 3x3 64->64 56", 64, 64, 56, 3, 1},
    {"rn50 1x1 64->256 56", 64, 256, 56, 1, 1},
    {"rn50 3x3 128->128 28", 128, 128, 28, 3, 1},
    {"rn50 1x1 1024->256 14", 1024, 256, 14, 1, 1},
    {"rn50 3x3 256->256 14", 256, 256, 14, 3, 1},
    {"rn50 3x3 512->512 7", 512, 512, 7, 3, 1},
    {"rn50 1x1 512->2048 7", 512, 2048, 7, 1, 1},
    {"sqz conv1 3x3 s2 3->64 224", 3, 64, 224, 3, 2},
    {"sqz fire2 squeeze 64->16 55", 64, 16, 55, 1, 1},
    {"sqz fire2 expand1 16->64 55", 16, 64, 55, 1, 1},
    {"sqz fire2 expand3 16->64 55", 16, 64, 55, 3, 1},
    {"sqz fire9 squeeze 512->64 13", 512, 64, 13, 1, 1},
    {"sqz fire9 expand3 64->256 13", 64, 256, 13, 3, 1},
    {"sqz conv10 512->1000 13", 512, 1000, 13, 1, 1},
};
enum { shape_count = sizeof shapes / sizeof shapes[0], runs = 5 };

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int by_value(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, size_t n) {
    qsort(v, n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

typedef struct layer {
    fovea_conv2d_params p;
    float *x, *y;
    uint8_t *qx, *qy;
    void *packed, *qpacked, *workspace, *qworkspace;
    size_t workspace_bytes, qworkspace_bytes;
    double ops;
} layer;

static layer make_layer(const shape *s, const char *kernel) {
    layer l;
    const size_t pad = s->kernel / 2, out = (s->size + 2 * pad - s->kernel) / s->stride + 1;
    l.p = (fovea_conv2d_params){1, s->channels, s->size, s->size, s->outputs, 1, out, out, s->kernel, s->kernel,
                                s->stride, s->stride, 1, 1, pad, pad};
    const size_t k = s->channels * s->kernel * s->kernel, xn = s->channels * s->size * s->size;
    l.ops = 2.0 * (double)s->outputs * (double)k * (double)(out * out);
    l.x = malloc(xn * sizeof(float));
    l.y = malloc(s->outputs * out * out * sizeof(float));
    l.qx = malloc(xn);
    l.qy = malloc(s->outputs * out * out);
    float *w = malloc(s->outputs * k * sizeof(float));
    int8_t *qw = malloc(s->outputs * k);
    int32_t *qb = calloc(s->outputs, sizeof(int32_t));
    float *scales = malloc(s->outputs * sizeof(float));
    for (size_t i = 0; i < xn; i++) l.qx[i] = (uint8_t)((i * 37) % 251), l.x[i] = (float)l.qx[i] / 255.0f;
    for (size_t i = 0; i < s->outputs * k; i++) qw[i] = (int8_t)((i * 53) % 255 - 127), w[i] = (float)qw[i] / 1270.0f;
    for (size_t i = 0; i < s->outputs; i++) scales[i] = 0.001f * (float)(1 + i % 7);
    const size_t bytes = fovea_conv2d_packed_size(&l.p);
    l.packed = malloc(bytes);
    const size_t qbytes = fovea_qconv2d_packed_size(&l.p, kernel);
    l.qpacked = malloc(qbytes);
    const fovea_qconv2d_quantization q = {FOVEA_QTYPE_U8, 0.02f, 3, scales, s->outputs, NULL, FOVEA_QTYPE_U8, 0.5f, 128, 128, 255};
    if (fovea_conv2d_pack(&l.p, w, NULL, l.packed, bytes) != FOVEA_STATUS_OK ||
        fovea_qconv2d_pack(&l.p, &q, qw, qb, kernel, l.qpacked, qbytes) != FOVEA_STATUS_OK) {
        fprintf(stderr, "packing %s failed\n", s->name);
        exit(1);
    }
    l.workspace_bytes = fovea_conv2d_workspace_size(l.packed, 1);
    l.workspace = malloc(l.workspace_bytes);
    l.qworkspace_bytes = fovea_qconv2d_workspace_size(l.qpacked, 1);
    l.qworkspace = malloc(l.qworkspace_bytes);
    free(w), free(qw), free(qb), free(scales);
    return l;
}

static void run(layer *l, int int8) {
    const fovea_activation relu = {FOVEA_ACTIVATION_RELU, 0, 0, 0};
    const size_t image = l->p.output_channels * l->p.output_height * l->p.output_width;
    if (int8) {
        fovea_qconv2d_run(&l->p, l->qpacked, l->qx, l->qy, image, l->qworkspace, l->qworkspace_bytes, NULL);
    } else {
        fovea_conv2d_f32(&l->p, l->packed, l->x, l->y, image, NULL, &relu, l->workspace, l->workspace_bytes, NULL);
    }
}

/* The median of `runs` runs, in seconds. */
static double time_layer(layer *l, int int8) {
    double t[runs];
    run(l, int8);
    for (int r = 0; r < runs; r++) {
        const double t0 = now();
        run(l, int8);
        t[r] = now() - t0;
    }
    return median(t, runs);
}

static void measure_tiles(const char *kernel) {
    enum { k = 256 };
    static int8_t a[32 * k * 2];
    static uint8_t b[32 * k], c[32 * 32];
    static int32_t bias[32];
    static float scale[32];
    for (size_t i = 0; i < sizeof a; i++) a[i] = (int8_t)(i % 7);
    for (size_t i = 0; i < sizeof b; i++) b[i] = (uint8_t)(i % 13);
    for (size_t i = 0; i < 32; i++) scale[i] = 0.001f;
    printf("\n| tile (k %d, L1-resident, 1 thread) | GOP/s |\n|---|---:|\n", k);
    const fovea_qs8_gemm_config *config = fovea_qs8_gemm_config_named(kernel);
    if (config != NULL && config->supported()) {
        fovea_qs8_requant rq = {bias, scale, -128.0f, 127.0f, 128, 0};
        double best = 1e9;
        for (int rep = 0; rep < 200; rep++) {
            const double t0 = now();
            for (int i = 0; i < 100; i++) config->ukernel(config->mr, config->nr, k, a, b, &rq, c, 32, config);
            const double dt = (now() - t0) / 100;
            if (dt < best) best = dt;
        }
        printf("| %s | %.1f |\n", config->name, 2.0 * (double)(config->mr * config->nr) * k / best * 1e-9);
    }
    const char *isa = fovea_kernels_isa_name();
    size_t mr = 0, nr = 0;
    if (fovea_gemm_microkernel_tile(isa, &mr, &nr) == FOVEA_STATUS_OK) {
        float *fa = calloc(mr * k, sizeof(float)), *fb = calloc(nr * k, sizeof(float)), *fc = calloc(mr * nr, sizeof(float));
        enum { calls = 100 };
        double best = 1e9;
        for (int rep = 0; rep < 200; rep++) {
            const double t0 = now();
            fovea_gemm_microkernel_repeat_f32(isa, k, fa, fb, fc, nr, calls);
            const double dt = (now() - t0) / calls;
            if (dt < best) best = dt;
        }
        printf("| %s | %.1f |\n", fovea_gemm_microkernel_name(isa), 2.0 * (double)(mr * nr) * k / best * 1e-9);
        free(fa), free(fb), free(fc);
    }
}

int main(int argc, char **argv) {
    const int rounds = argc > 1 ? atoi(argv[1]) : 5;
    const char *kernel = argc > 2 ? argv[2] : fovea_qconv2d_default_kernel();
    if (!fovea_qconv2d_kernel_supported(kernel)) {
        fprintf(stderr, "int8 kernel %s not supported here\n", kernel);
        return 1;
    }
    printf("ISA %s, int8 kernel %s; FMA peak (%s) %.1f GFLOP/s (1 thread)\n", fovea_kernels_isa_name(), kernel,
           fovea_kernels_isa_name(), fovea_fma_peak_gflops(fovea_kernels_isa_name(), 0.2));
    static layer layers[shape_count];
    for (int i = 0; i < shape_count; i++) layers[i] = make_layer(&shapes[i], kernel);
    static double times[shape_count][2][64];
    for (int round = 0; round < rounds && round < 64; round++)
        for (int i = 0; i < shape_count; i++)
            for (int int8 = 0; int8 < 2; int8++) times[i][int8][round] = time_layer(&layers[i], int8);
    printf("\n| layer (1 thread) | fp32 kernel | fp32 ms | fp32 GFLOP/s | int8 ms | int8 GOP/s | int8/fp32 speed |\n");
    printf("|---|---|---:|---:|---:|---:|---:|\n");
    for (int i = 0; i < shape_count; i++) {
        const double t32 = median(times[i][0], (size_t)rounds), t8 = median(times[i][1], (size_t)rounds);
        printf("| %s | %s | %.3f | %.1f | %.3f | %.1f | %.2fx |\n", shapes[i].name, fovea_conv2d_kernel_name(layers[i].packed),
               t32 * 1e3, layers[i].ops / t32 * 1e-9, t8 * 1e3, layers[i].ops / t8 * 1e-9, t32 / t8);
    }
    measure_tiles(kernel);
    return 0;
}
