/*
 * Times the GEMM convolution with float32 weights against bf16 weights
 * (fovea_conv2d_pack_precision) on ResNet-50, SqueezeNet 1.1 and MobileNetV2
 * layer shapes, one thread, and the bf16 GEMM tiles alone; prints the fp32
 * FMA and the vdpbf16ps peaks they are compared with.
 *
 * Usage: fovea_measure_bf16_conv [rounds] [isa]. Each round runs every layer
 * once in fp32 then once in bf16 (alternated, so a busy neighbour slows both
 * alike), each time the median of 5 runs; the table shows the median over
 * rounds. `isa` forces the ISA the weights are packed for (default: the best).
 * The tile table times each bf16 microkernel on L1-resident panels (kc 256),
 * the best of 200 calls, in GFLOP/s.
 */
#include "fovea_kernels.h"
#include "../../Kernels/src/microkernels/gemm-bf16/gemm-bf16.h"

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
    {"rn50 7x7 s2 3->64 224", 3, 64, 224, 7, 2},
    {"sqz fire2 squeeze 64->16 55", 64, 16, 55, 1, 1},
    {"sqz fire2 expand1 16->64 55", 16, 64, 55, 1, 1},
    {"sqz fire9 squeeze 512->64 13", 512, 64, 13, 1, 1},
    {"sqz fire9 expand1 64->256 13", 64, 256, 13, 1, 1},
    {"sqz conv10 512->1000 13", 512, 1000, 13, 1, 1},
    {"mnv2 expand 24->144 56", 24, 144, 56, 1, 1},
    {"mnv2 project 144->24 56", 144, 24, 56, 1, 1},
    {"mnv2 expand 64->384 14", 64, 384, 14, 1, 1},
    {"mnv2 project 960->160 7", 960, 160, 7, 1, 1},
    {"mnv2 last 320->1280 7", 320, 1280, 7, 1, 1},
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
    void *packed[2], *workspace[2];
    size_t workspace_bytes[2];
    double flops;
} layer;

static layer make_layer(const shape *s) {
    layer l;
    const size_t pad = s->kernel / 2, out = (s->size + 2 * pad - s->kernel) / s->stride + 1;
    l.p = (fovea_conv2d_params){1, s->channels, s->size, s->size, s->outputs, 1, out, out, s->kernel, s->kernel,
                                s->stride, s->stride, 1, 1, pad, pad};
    const size_t k = s->channels * s->kernel * s->kernel;
    l.flops = 2.0 * (double)s->outputs * (double)k * (double)(out * out);
    l.x = malloc(s->channels * s->size * s->size * sizeof(float));
    l.y = malloc(s->outputs * out * out * sizeof(float));
    float *w = malloc(s->outputs * k * sizeof(float));
    for (size_t i = 0; i < s->channels * s->size * s->size; i++) l.x[i] = (float)((i * 37) % 101) / 101.0f - 0.5f;
    for (size_t i = 0; i < s->outputs * k; i++) w[i] = (float)((i * 53) % 97) / 970.0f - 0.05f;
    for (int precision = 0; precision < 2; precision++) {
        const size_t bytes = fovea_conv2d_packed_size_precision(&l.p, (fovea_precision)precision);
        l.packed[precision] = malloc(bytes);
        if (fovea_conv2d_pack_precision(&l.p, (fovea_precision)precision, w, NULL, l.packed[precision], bytes) !=
            FOVEA_STATUS_OK) {
            fprintf(stderr, "packing %s failed\n", s->name);
            exit(1);
        }
        l.workspace_bytes[precision] = fovea_conv2d_workspace_size(l.packed[precision], 1);
        l.workspace[precision] = malloc(l.workspace_bytes[precision]);
    }
    free(w);
    return l;
}

/* The median of `runs` runs of one precision, in seconds. */
static double time_layer(layer *l, int precision) {
    const fovea_activation relu = {FOVEA_ACTIVATION_RELU, 0, 0, 0};
    double t[runs];
    fovea_conv2d_f32(&l->p, l->packed[precision], l->x, l->y, l->p.output_channels * l->p.output_height * l->p.output_width,
                     NULL, &relu, l->workspace[precision], l->workspace_bytes[precision], NULL);
    for (int r = 0; r < runs; r++) {
        const double t0 = now();
        fovea_conv2d_f32(&l->p, l->packed[precision], l->x, l->y,
                         l->p.output_channels * l->p.output_height * l->p.output_width, NULL, &relu,
                         l->workspace[precision], l->workspace_bytes[precision], NULL);
        t[r] = now() - t0;
    }
    return median(t, runs);
}

typedef struct tile {
    const char *name;
    const char *isa;
    size_t mr;
    fovea_bf16_gemm_ukernel_fn run;
} tile;

static void measure_tiles(void) {
#if defined(__x86_64__)
    const tile tiles[] = {
        {"bf16_gemm_8x32_avx512 (FMA)", "avx512", 8, fovea_bf16_gemm_8x32__avx512},
        {"bf16_gemm_8x32_avx512bf16", "avx512bf16", 8, fovea_bf16_gemm_8x32__avx512bf16},
        {"bf16_gemm_12x32_avx512bf16", "avx512bf16", 12, fovea_bf16_gemm_12x32__avx512bf16},
    };
    enum { kc = 256 };
    static uint16_t a[16 * kc], b[32 * kc];
    static float c[16 * 32];
    for (size_t i = 0; i < 16 * kc; i++) a[i] = 0x3C00 + (uint16_t)(i % 64);
    for (size_t i = 0; i < 32 * kc; i++) b[i] = 0x3C00 + (uint16_t)(i % 32);
    printf("\n| tile (kc %d, L1-resident, 1 thread) | GFLOP/s |\n|---|---:|\n", kc);
    for (size_t t = 0; t < sizeof tiles / sizeof tiles[0]; t++) {
        if (!fovea_kernels_isa_supported(tiles[t].isa)) continue;
        double best = 1e9;
        for (int rep = 0; rep < 200; rep++) {
            const double t0 = now();
            for (int i = 0; i < 100; i++) tiles[t].run(tiles[t].mr, 32, kc, a, b, c, 32, NULL, 0, NULL);
            const double dt = (now() - t0) / 100;
            if (dt < best) best = dt;
        }
        printf("| %s | %.1f |\n", tiles[t].name, 2.0 * (double)tiles[t].mr * 32 * kc / best * 1e-9);
    }
#endif
}

int main(int argc, char **argv) {
    const int rounds = argc > 1 ? atoi(argv[1]) : 5;
    if (argc > 2 && fovea_kernels_set_isa(argv[2]) != FOVEA_STATUS_OK) {
        fprintf(stderr, "ISA %s not supported here\n", argv[2]);
        return 1;
    }
    printf("ISA %s; FMA peak (avx512) %.1f GFLOP/s, vdpbf16ps peak %.1f GFLOP/s (1 thread)\n",
           fovea_kernels_isa_name(), fovea_fma_peak_gflops("avx512", 0.2), fovea_bf16_dot_peak_gflops(0.2));
    static layer layers[shape_count];
    for (int i = 0; i < shape_count; i++) layers[i] = make_layer(&shapes[i]);
    static double times[shape_count][2][64];
    for (int round = 0; round < rounds && round < 64; round++)
        for (int i = 0; i < shape_count; i++)
            for (int precision = 0; precision < 2; precision++) times[i][precision][round] = time_layer(&layers[i], precision);
    printf("\n| layer (1 thread) | fp32 kernel | fp32 ms | fp32 GFLOP/s | bf16 kernel | bf16 ms | bf16 GFLOP/s | bf16/fp32 |\n");
    printf("|---|---|---:|---:|---|---:|---:|---:|\n");
    for (int i = 0; i < shape_count; i++) {
        const double t32 = median(times[i][0], (size_t)rounds), t16 = median(times[i][1], (size_t)rounds);
        printf("| %s | %s | %.3f | %.1f | %s | %.3f | %.1f | %.2fx |\n", shapes[i].name,
               fovea_conv2d_kernel_name(layers[i].packed[0]), t32 * 1e3, layers[i].flops / t32 * 1e-9,
               fovea_conv2d_kernel_name(layers[i].packed[1]), t16 * 1e3, layers[i].flops / t16 * 1e-9, t32 / t16);
    }
    measure_tiles();
    return 0;
}
