/*
 * Times the GEMM convolution alone on 1×1 stride-1 layers (ResNet-50's
 * bottleneck reduce / expand layers, with the residual add where the network
 * fuses it, and MobileNetV2's pointwise layers), at 1 and 2 threads.
 *
 * Usage: fovea_measure_pointwise [runs] [filter] [max threads: 1 or 2]. Each time is the median
 * (and minimum) over `runs` runs; before each run a 4 MB buffer is written,
 * so the layer's input and weights come from L2/L3 as inside a network (64 MB
 * for the fully connected layer, whose weights come from memory there).
 * Buffers ask for huge pages as Fovea's arena does (madvise), so the strided
 * reads of the input planes see the same TLB as in the network.
 */
#include "fovea_kernels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

typedef struct shape {
    const char *name;
    size_t channels, outputs, size;
    int add;  /* residual add fused (conv3 of a bottleneck) */
    int relu; /* 1: ReLU, 6: ReLU6 (a Clip to [0, 6], MobileNetV2's), 0: none */
    int cold; /* weights come from memory (a classifier's last layer: every other layer's data has evicted them) */
} shape;

static const shape shapes[] = {
    {"rn50 l1.0.conv1 64->64 56", 64, 64, 56, 0, 1, 0},
    {"rn50 l1.x.conv1 256->64 56", 256, 64, 56, 0, 1, 0},
    {"rn50 l1.x.conv3 64->256 56 +add", 64, 256, 56, 1, 1, 0},
    {"rn50 l1.0.down 64->256 56", 64, 256, 56, 0, 0, 0},
    {"rn50 l2.0.conv1 256->128 56", 256, 128, 56, 0, 1, 0},
    {"rn50 l2.x.conv1 512->128 28", 512, 128, 28, 0, 1, 0},
    {"rn50 l2.x.conv3 128->512 28 +add", 128, 512, 28, 1, 1, 0},
    {"rn50 l3.0.conv1 512->256 28", 512, 256, 28, 0, 1, 0},
    {"rn50 l3.x.conv1 1024->256 14", 1024, 256, 14, 0, 1, 0},
    {"rn50 l3.x.conv3 256->1024 14 +add", 256, 1024, 14, 1, 1, 0},
    {"rn50 l4.0.conv1 1024->512 14", 1024, 512, 14, 0, 1, 0},
    {"rn50 l4.x.conv1 2048->512 7", 2048, 512, 7, 0, 1, 0},
    {"rn50 l4.x.conv3 512->2048 7 +add", 512, 2048, 7, 1, 1, 0},
    {"rn50 fc 2048->1000", 2048, 1000, 1, 0, 0, 1},
    {"mnv2 expand 16->96 112", 16, 96, 112, 0, 6, 0},
    {"mnv2 project 32->16 112", 32, 16, 112, 0, 0, 0},
    {"mnv2 project 96->24 56", 96, 24, 56, 0, 0, 0},
    {"mnv2 expand 24->144 56", 24, 144, 56, 0, 6, 0},
    {"mnv2 project 144->24 56", 144, 24, 56, 0, 0, 0},
    {"mnv2 expand 32->192 28", 32, 192, 28, 0, 6, 0},
    {"mnv2 project 192->32 28", 192, 32, 28, 0, 0, 0},
    {"mnv2 expand 64->384 14", 64, 384, 14, 0, 6, 0},
    {"mnv2 project 384->64 14", 384, 64, 14, 0, 0, 0},
    {"mnv2 project 576->96 14", 576, 96, 14, 0, 0, 0},
    {"mnv2 expand 160->960 7", 160, 960, 7, 0, 6, 0},
    {"mnv2 project 960->160 7", 960, 160, 7, 0, 0, 0},
    {"mnv2 last 320->1280 7", 320, 1280, 7, 0, 6, 0},
};

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* A 2 MB-aligned buffer with huge pages requested, as Fovea's arena. */
static void *huge_alloc(size_t bytes) {
    const size_t huge = 2 << 20, rounded = (bytes + huge - 1) / huge * huge;
    void *p = NULL;
    if (posix_memalign(&p, huge, rounded) != 0) return NULL;
    madvise(p, rounded, MADV_HUGEPAGE);
    memset(p, 0, rounded);
    return p;
}

/* Writes 4 MB (past L2), or 64 MB (past L3) for a cold layer. */
static void evict_caches(int cold) {
    const size_t bytes = (size_t)(cold ? 64 : 4) << 20;
    static volatile unsigned char *buffer = NULL;
    if (buffer == NULL) buffer = malloc((size_t)64 << 20);
    for (size_t i = 0; i < bytes; i += 64) buffer[i] = (unsigned char)i;
}

static int compare_doubles(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void measure(const shape *s, size_t threads, int runs, double *median, double *minimum) {
    const fovea_conv2d_params p = {1, s->channels, s->size, s->size, s->outputs, 1, s->size, s->size,
                                   1, 1, 1, 1, 1, 1, 0, 0};
    const size_t plane = s->size * s->size;
    float *w = malloc(s->outputs * s->channels * sizeof(float));
    float *x = huge_alloc(s->channels * plane * sizeof(float));
    float *y = huge_alloc(s->outputs * plane * sizeof(float));
    for (size_t i = 0; i < s->outputs * s->channels; i++) w[i] = (float)((i * 7919) % 1000) / 1000.0f - 0.5f;
    for (size_t i = 0; i < s->channels * plane; i++) x[i] = (float)((i * 104729) % 1000) / 1000.0f;
    const size_t packed_bytes = fovea_conv2d_packed_size(&p);
    void *packed = huge_alloc(packed_bytes);
    fovea_conv2d_pack(&p, w, NULL, packed, packed_bytes);
    const size_t workspace_bytes = fovea_conv2d_workspace_size(packed, threads);
    void *workspace = huge_alloc(workspace_bytes + 64);
    const fovea_threadpool pool = fovea_threadpool_default(threads);
    const fovea_activation relu = {FOVEA_ACTIVATION_RELU, 0, 0, 0}, relu6 = {FOVEA_ACTIVATION_CLIP, 0, 6, 0};
    const fovea_activation *act = s->relu == 6 ? &relu6 : s->relu ? &relu : NULL;
    double *times = malloc((size_t)runs * sizeof(double));
    for (int r = -3; r < runs; r++) {
        for (size_t i = 0; i < s->outputs * plane; i += 997) y[i] = 0.25f; /* keep the residual finite */
        evict_caches(s->cold);
        const double start = now();
        const fovea_status status =
            s->add ? fovea_conv2d_add_f32(&p, packed, x, y, s->outputs * plane, NULL, act, workspace, workspace_bytes,
                                          &pool)
                   : fovea_conv2d_f32(&p, packed, x, y, s->outputs * plane, NULL, act, workspace, workspace_bytes,
                                      &pool);
        if (status != FOVEA_STATUS_OK) {
            fprintf(stderr, "%s: %s\n", s->name, fovea_status_description(status));
            exit(1);
        }
        if (r >= 0) times[r] = (now() - start) * 1e3;
    }
    qsort(times, (size_t)runs, sizeof times[0], compare_doubles);
    *median = times[runs / 2];
    *minimum = times[0];
    free(times), free(w), free(x), free(y), free(packed), free(workspace);
}

int main(int argc, char **argv) {
    const int runs = argc > 1 ? atoi(argv[1]) : 31;
    const char *filter = argc > 2 ? argv[2] : "";
    const int two = argc > 3 ? atoi(argv[3]) >= 2 : 1; /* third argument 1: one thread only */
    printf("%-36s %9s %9s %7s %9s %9s %7s\n", "layer", "1t med", "1t min", "GF/s", "2t med", "2t min", "GF/s");
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const shape *s = &shapes[i];
        if (strstr(s->name, filter) == NULL) continue;
        const double flops = 2.0 * (double)s->channels * (double)s->outputs * (double)(s->size * s->size);
        double m1, n1, m2, n2;
        measure(s, 1, runs, &m1, &n1);
        m2 = n2 = 0;
        if (two) measure(s, 2, runs, &m2, &n2);
        printf("%-36s %9.4f %9.4f %7.1f %9.4f %9.4f %7.1f\n", s->name, m1, n1, flops / m1 * 1e-6, m2, n2,
               flops / m2 * 1e-6);
        fflush(stdout);
    }
    return 0;
}
