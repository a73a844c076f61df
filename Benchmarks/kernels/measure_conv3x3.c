/*
 * Measures every algorithm the kernels have for 3×3 stride-1 convolutions
 * (GEMM on im2col blocks, Winograd F(2), F(4), F(6)) on a grid of shapes, at
 * 1 and 2 threads, and prints the table the kernels backend chooses from as Swift
 * source (Benchmarks/scripts/measure-conv-algorithms.sh writes it to
 * Sources/Backends/Kernels/ConvolutionAlgorithmTable+Measured.swift).
 *
 * Each time is the median of repeated runs after a warm-up; before each run
 * an 8 MB buffer is written, so the weights come from L3 as they do inside a
 * network (the other layers' data has evicted L1 and L2), not from a hot L2:
 * measured hot, F(6)'s 7× larger transformed weights looked faster than F(4)
 * on SqueezeNet's layers, and inside the network they were slower. A shape's best
 * algorithm is the one with the smallest sum of its 1- and 2-thread times,
 * since one plan serves every thread count, where a later algorithm (GEMM,
 * F2, F4, F6) must beat the earlier ones by 8% to be chosen: a larger tile
 * has a larger error and larger transformed weights, and inside a network
 * F(6) was no faster than F(4) on the shapes where it won here by a few %.
 */
#include "fovea_kernels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { algorithms = 4, repeats = 7 };
static const char *const names[algorithms] = {"gemm", "winogradF2", "winogradF4", "winogradF6"};

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Writes a buffer larger than L2, evicting the previous run's data from L1 and L2. */
static void evict_caches(void) {
    enum { bytes = 8 << 20 };
    static volatile unsigned char *buffer = NULL;
    if (buffer == NULL) buffer = malloc(bytes);
    for (size_t i = 0; i < bytes; i += 64) buffer[i] = (unsigned char)i;
}

static int compare_doubles(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median milliseconds of one algorithm (0: GEMM, else the Winograd tile index) on `threads` threads. */
static double measure(const fovea_conv2d_params *p, int algorithm, size_t threads, const float *w, const float *x,
                      float *y) {
    const fovea_winograd_tile tiles[] = {FOVEA_WINOGRAD_F2, FOVEA_WINOGRAD_F2, FOVEA_WINOGRAD_F4, FOVEA_WINOGRAD_F6};
    const size_t packed_bytes = algorithm == 0 ? fovea_conv2d_packed_size(p)
                                               : fovea_winograd_packed_size(p, tiles[algorithm]);
    void *packed = aligned_alloc(64, (packed_bytes + 63) / 64 * 64);
    fovea_status status = algorithm == 0 ? fovea_conv2d_pack(p, w, NULL, packed, packed_bytes)
                                         : fovea_winograd_pack(p, tiles[algorithm], w, NULL, packed, packed_bytes);
    const size_t workspace_bytes = algorithm == 0 ? fovea_conv2d_workspace_size(packed, threads)
                                                  : fovea_winograd_workspace_size(packed, threads);
    void *workspace = aligned_alloc(64, (workspace_bytes + 63) / 64 * 64 + 64);
    const fovea_activation relu = {FOVEA_ACTIVATION_RELU, 0, 0, 0};
    const fovea_threadpool pool = fovea_threadpool_default(threads);
    const size_t stride = p->output_channels * p->output_height * p->output_width;
    double times[repeats];
    for (int r = -2; r < repeats && status == FOVEA_STATUS_OK; r++) {
        evict_caches();
        const double start = now();
        status = algorithm == 0
            ? fovea_conv2d_f32(p, packed, x, y, stride, NULL, &relu, workspace, workspace_bytes, &pool)
            : fovea_winograd_conv2d_f32(p, packed, x, y, stride, NULL, &relu, workspace, workspace_bytes, &pool);
        if (r >= 0) times[r] = (now() - start) * 1e3;
    }
    free(packed);
    free(workspace);
    if (status != FOVEA_STATUS_OK) {
        fprintf(stderr, "%s failed: %s\n", names[algorithm], fovea_status_description(status));
        exit(1);
    }
    qsort(times, repeats, sizeof times[0], compare_doubles);
    return times[repeats / 2];
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--isa") == 0) {
        printf("%s\n", fovea_kernels_isa_name());
        return 0;
    }
    const size_t channels[] = {16, 32, 64, 128, 256, 512};
    const size_t outputs[] = {16, 64, 128, 256, 512};
    const size_t sizes[] = {7, 13, 14, 27, 28, 55, 56};
    /* Larger shapes take long and behave like the largest measured ones. */
    const double max_flops = 2.5e9;
    printf("    static let measured: [Row] = [\n");
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        for (size_t c = 0; c < sizeof channels / sizeof channels[0]; c++) {
            for (size_t m = 0; m < sizeof outputs / sizeof outputs[0]; m++) {
                const size_t size = sizes[s], C = channels[c], M = outputs[m];
                const double flops = 2.0 * 9.0 * (double)C * (double)M * (double)(size * size);
                if (flops > max_flops) continue;
                const fovea_conv2d_params p = {1, C, size, size, M, 1, size, size, 3, 3, 1, 1, 1, 1, 1, 1};
                float *w = malloc(M * C * 9 * sizeof(float)), *x = malloc(C * size * size * sizeof(float));
                float *y = malloc(M * size * size * sizeof(float));
                for (size_t i = 0; i < M * C * 9; i++) w[i] = (float)((i * 7919) % 1000) / 1000.0f - 0.5f;
                for (size_t i = 0; i < C * size * size; i++) x[i] = (float)((i * 104729) % 1000) / 1000.0f;
                double one[algorithms], two[algorithms];
                int best = 0;
                for (int a = 0; a < algorithms; a++) {
                    one[a] = measure(&p, a, 1, w, x, y);
                    two[a] = measure(&p, a, 2, w, x, y);
                    /* A larger tile must win by 8%: its error is larger, and so are its weights. */
                    if (one[a] + two[a] < 0.92 * (one[best] + two[best])) best = a;
                }
                printf("        Row(channels: %zu, outputs: %zu, size: %zu, milliseconds: [%.4f, %.4f, %.4f, %.4f], "
                       "twoThreads: [%.4f, %.4f, %.4f, %.4f], best: .%s),\n",
                       C, M, size, one[0], one[1], one[2], one[3], two[0], two[1], two[2], two[3], names[best]);
                fflush(stdout);
                free(w), free(x), free(y);
            }
        }
    }
    printf("    ]\n");
    return 0;
}
