/*
 * Winograd F(m×m, 3×3) convolution: every tile size with every ISA the CPU
 * supports, against a direct convolution computed here in double, over
 * seeded random shapes with ragged edges (odd sizes, pads 0–2 and asymmetric
 * ones through the output size, channel counts that are not multiples of the
 * tiles, batches with gaps between the images), every bias mode and activation;
 * the measured error on realistic data (printed, checked against the
 * header's tolerances); and the bad arguments.
 */
#include "support/reference.h"
#include "support/test_support.h"

/* ---- The direct convolution, in double ------------------------------------------ */

/* ---- Data --------------------------------------------------------------------------- */

/* A standard normal number (Box–Muller). */
static double rng_normal(test_rng *rng) {
    const double u1 = ((double)(rng_next(rng) >> 11) + 0.5) / 9007199254740992.0;
    const double u2 = (double)(rng_next(rng) >> 11) / 9007199254740992.0;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

/* Inputs as after a ReLU, U(0, 1) (signed: U(−1, 1)); weights N(0, 1/(9C)) as He-style initialization. */
static void fill_input(test_rng *rng, float *x, size_t count, int is_signed) {
    for (size_t i = 0; i < count; i++) {
        const float u = rng_float(rng);
        x[i] = is_signed ? u : 0.5f * (u + 1.0f);
    }
}

static void fill_weights(test_rng *rng, float *w, size_t count, size_t channels) {
    const double sigma = 1.0 / sqrt(9.0 * (double)channels);
    for (size_t i = 0; i < count; i++) w[i] = (float)(sigma * rng_normal(rng));
}

static const size_t tiles[3] = {2, 4, 6};
static const double tolerances[3] = {FOVEA_WINOGRAD_F2_TOLERANCE, FOVEA_WINOGRAD_F4_TOLERANCE,
                                     FOVEA_WINOGRAD_F6_TOLERANCE};

static fovea_conv2d_params conv3x3(size_t batch, size_t C, size_t M, size_t H, size_t W, size_t OH, size_t OW,
                                   size_t pad_top, size_t pad_left) {
    fovea_conv2d_params p;
    memset(&p, 0, sizeof p);
    p.batch = batch;
    p.channels = C;
    p.input_height = H;
    p.input_width = W;
    p.output_channels = M;
    p.groups = 1;
    p.output_height = OH;
    p.output_width = OW;
    p.kernel_height = p.kernel_width = 3;
    p.stride_height = p.stride_width = 1;
    p.dilation_height = p.dilation_width = 1;
    p.pad_top = pad_top;
    p.pad_left = pad_left;
    return p;
}

static void describe(const fovea_conv2d_params *p, char *text, size_t size) {
    snprintf(text, size, "N%zu C%zu M%zu in %zux%zu out %zux%zu pads t%zu l%zu", p->batch, p->channels,
             p->output_channels, p->input_height, p->input_width, p->output_height, p->output_width, p->pad_top,
             p->pad_left);
}

/* Packs for the active ISA into a fresh buffer (NULL on failure, with a failed check). */
static void *pack(const fovea_conv2d_params *p, size_t tile, const float *w, const float *bias, size_t *bytes) {
    *bytes = fovea_winograd_packed_size(p, (fovea_winograd_tile)tile);
    CHECK(*bytes > 0, "packed size 0 for a valid shape");
    if (*bytes == 0) return NULL;
    void *packed = malloc(*bytes);
    if (packed == NULL) exit(2);
    const fovea_status status = fovea_winograd_pack(p, (fovea_winograd_tile)tile, w, bias, packed, *bytes);
    CHECK(status == FOVEA_STATUS_OK, "pack returned %d", (int)status);
    if (status != FOVEA_STATUS_OK) {
        free(packed);
        return NULL;
    }
    return packed;
}

/*
 * Runs into a guarded y with `gap` floats between images, then checks the
 * guards and the gaps and returns max|y − activation(ref)| / max|ref| (ref
 * before the activation). Returns -1 (after a failed check) if the run failed.
 */
static double run_and_measure(const fovea_conv2d_params *p, const void *packed, const float *x, const double *ref,
                              const float *run_bias, const fovea_activation *act, size_t gap, size_t threads,
                              size_t workspace_misalign, float *copy_out) {
    const size_t image = p->output_channels * p->output_height * p->output_width;
    const size_t stride = image + gap;
    const size_t total = (p->batch - 1) * stride + image;
    guarded_buffer y = guarded_alloc(total, workspace_misalign % 4);
    const size_t ws_bytes = fovea_winograd_workspace_size(packed, threads);
    CHECK(ws_bytes > 0, "workspace size 0");
    unsigned char *ws = (unsigned char *)malloc(ws_bytes + 8);
    if (ws == NULL) exit(2);
    const fovea_status status = fovea_winograd_conv2d_f32(p, packed, x, y.data, stride, run_bias, act,
                                                          ws + workspace_misalign, ws_bytes, test_pool(threads));
    double error = -1.0;
    CHECK(status == FOVEA_STATUS_OK, "run returned %d (%s)", (int)status, fovea_status_description(status));
    if (status == FOVEA_STATUS_OK) {
        double max_ref = 0.0, max_diff = 0.0;
        int gaps_intact = 1;
        for (size_t n = 0; n < p->batch; n++) {
            for (size_t i = 0; i < image; i++) {
                const double r = ref[n * image + i];
                const double got = (double)y.data[n * stride + i];
                const double diff = fabs(got - test_activation(act, r));
                if (fabs(r) > max_ref) max_ref = fabs(r);
                if (!(diff <= max_diff)) max_diff = diff; /* NaN wins */
            }
            if (n + 1 < p->batch) {
                for (size_t i = image; i < stride; i++) {
                    if (float_bits(y.data[n * stride + i]) != guard_bits) gaps_intact = 0;
                }
            }
        }
        CHECK(gaps_intact, "written between images");
        error = max_ref > 0.0 ? max_diff / max_ref : max_diff;
        if (copy_out != NULL) {
            for (size_t n = 0; n < p->batch; n++) memcpy(copy_out + n * image, y.data + n * stride, image * sizeof(float));
        }
    }
    CHECK(guards_intact(&y), "written outside y");
    guarded_free(&y);
    free(ws);
    return error;
}

/* ---- Random shapes ---------------------------------------------------------------- */

static double worst_random[3][test_isa_count];

static void random_case(test_rng *rng, int index) {
    const size_t batch = (size_t)rng_int(rng, 1, 3);
    const size_t C = rng_int(rng, 0, 4) == 0 ? (size_t)rng_int(rng, 25, 70) : (size_t)rng_int(rng, 1, 24);
    const size_t M = rng_int(rng, 0, 4) == 0 ? (size_t)rng_int(rng, 25, 70) : (size_t)rng_int(rng, 1, 24);
    const size_t H = (size_t)rng_int(rng, 1, 40), W = (size_t)rng_int(rng, 1, 40);
    const size_t pad_top = (size_t)rng_int(rng, 0, 2), pad_left = (size_t)rng_int(rng, 0, 2);
    const long pad_bottom = rng_int(rng, 0, 2), pad_right = rng_int(rng, 0, 2);
    const long OH = (long)H + (long)pad_top + pad_bottom - 2, OW = (long)W + (long)pad_left + pad_right - 2;
    if (OH < 1 || OW < 1) return;
    const fovea_conv2d_params p = conv3x3(batch, C, M, H, W, (size_t)OH, (size_t)OW, pad_top, pad_left);
    char text[160];
    describe(&p, text, sizeof text);

    const size_t x_count = batch * C * H * W, w_count = M * C * 9;
    const size_t out_count = batch * M * (size_t)(OH * OW);
    /* Every third case puts the input against an inaccessible page: an over-read crashes. */
    fenced_buffer fenced = {0};
    float *x;
    if (index % 3 == 0) {
        fenced = fenced_alloc(x_count, index % 2);
        x = fenced.data;
    } else {
        x = (float *)malloc(x_count * sizeof(float));
        if (x == NULL) exit(2);
    }
    float *w = (float *)malloc(w_count * sizeof(float));
    float *bias_a = (float *)malloc(M * sizeof(float)), *bias_b = (float *)malloc(M * sizeof(float));
    double *ref = (double *)malloc(out_count * sizeof(double));
    float *one = (float *)malloc(out_count * sizeof(float)), *many = (float *)malloc(out_count * sizeof(float));
    if (w == NULL || bias_a == NULL || bias_b == NULL || ref == NULL || one == NULL || many == NULL) exit(2);
    fill_input(rng, x, x_count, index % 4 == 1);
    fill_weights(rng, w, w_count, C);
    for (size_t i = 0; i < M; i++) {
        bias_a[i] = 0.5f * rng_float(rng);
        bias_b[i] = 0.5f * rng_float(rng);
    }
    /* Bias modes: 0 none, 1 packed, 2 packed and overridden at run time, 3 only at run time. */
    const int bias_mode = (int)rng_int(rng, 0, 3);
    const float *pack_bias = bias_mode == 1 || bias_mode == 2 ? bias_a : NULL;
    const float *run_bias = bias_mode == 2 || bias_mode == 3 ? bias_b : NULL;
    reference_conv2d(&p, w, bias_mode == 1 ? bias_a : run_bias, x, ref, NULL);

    fovea_activation act_storage;
    const fovea_activation *act = &act_storage;
    switch (rng_int(rng, 0, 4)) {
    case 0: act = NULL; break;
    case 1: act_storage = (fovea_activation){FOVEA_ACTIVATION_NONE, 0, 0, 0}; break;
    case 2: act_storage = (fovea_activation){FOVEA_ACTIVATION_RELU, 0, 0, 0}; break;
    case 3: act_storage = (fovea_activation){FOVEA_ACTIVATION_CLIP, -0.2f, 0.3f, 0}; break;
    default: act_storage = (fovea_activation){FOVEA_ACTIVATION_LEAKY_RELU, 0, 0, 0.1f}; break;
    }
    const size_t gap = batch > 1 ? (size_t)rng_int(rng, 0, 5) : 0;

    for (int t = 0; t < 3; t++) {
        for (int isa = 0; isa < test_isa_count; isa++) {
            if (fovea_kernels_set_isa(test_isas[isa]) != FOVEA_STATUS_OK) continue;
            size_t bytes = 0;
            void *packed = pack(&p, tiles[t], w, pack_bias, &bytes);
            if (packed == NULL) continue;
            const double error = run_and_measure(&p, packed, x, ref, run_bias, act, gap, 1, (size_t)(index % 5), one);
            CHECK(error >= 0.0 && error <= tolerances[t], "F%zu %s: relative error %.3g > %.3g (%s, bias mode %d, act %d)",
                  tiles[t], test_isas[isa], error, tolerances[t], text, bias_mode, act ? (int)act->kind : -1);
            if (error > worst_random[t][isa]) worst_random[t][isa] = error;
            /* More threads: the same bits (a unit's arithmetic does not depend on the split). */
            if (index % 4 == 0) {
                const size_t threads = index % 8 == 0 ? 2 : 3;
                run_and_measure(&p, packed, x, ref, run_bias, act, gap, threads, 0, many);
                CHECK(memcmp(one, many, out_count * sizeof(float)) == 0, "F%zu %s: %zu threads differ from 1 (%s)",
                      tiles[t], test_isas[isa], threads, text);
            }
            free(packed);
        }
    }
    fovea_kernels_set_isa("auto");
    if (index % 3 == 0) fenced_free(&fenced);
    else free(x);
    free(w);
    free(bias_a);
    free(bias_b);
    free(ref);
    free(one);
    free(many);
}

/* ---- Measured error on realistic layers --------------------------------------------- */

static void measured_error(test_rng *rng) {
    static const size_t shapes[][4] = {
        /* C, M, H (= W), batch */
        {16, 16, 28, 1}, {64, 16, 20, 1}, {128, 8, 14, 2}, {256, 8, 14, 1}, {512, 8, 14, 1},
    };
    double worst[3][test_isa_count] = {{0}};
    double gemm_worst = 0.0;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        const size_t C = shapes[s][0], M = shapes[s][1], H = shapes[s][2], N = shapes[s][3];
        const fovea_conv2d_params p = conv3x3(N, C, M, H, H, H, H, 1, 1);
        const size_t x_count = N * C * H * H, out_count = N * M * H * H;
        float *x = (float *)malloc(x_count * sizeof(float));
        float *w = (float *)malloc(M * C * 9 * sizeof(float));
        double *ref = (double *)malloc(out_count * sizeof(double));
        if (x == NULL || w == NULL || ref == NULL) exit(2);
        fill_input(rng, x, x_count, 0);
        fill_weights(rng, w, M * C * 9, C);
        reference_conv2d(&p, w, NULL, x, ref, NULL);
        /* For scale: the im2col GEMM convolution (fovea_conv2d_f32) on the same data. */
        {
            const size_t bytes = fovea_conv2d_packed_size(&p);
            void *packed = malloc(bytes);
            float *y = (float *)malloc(out_count * sizeof(float));
            if (packed == NULL || y == NULL) exit(2);
            if (fovea_conv2d_pack(&p, w, NULL, packed, bytes) == FOVEA_STATUS_OK) {
                const size_t need = fovea_conv2d_workspace_size(packed, 1);
                void *ws = malloc(need > 0 ? need : 1);
                if (ws == NULL) exit(2);
                if (fovea_conv2d_f32(&p, packed, x, y, M * H * H, NULL, NULL, ws, need, test_pool(1)) == FOVEA_STATUS_OK) {
                    double max_ref = 0.0, max_diff = 0.0;
                    for (size_t i = 0; i < out_count; i++) {
                        max_ref = fmax(max_ref, fabs(ref[i]));
                        max_diff = fmax(max_diff, fabs((double)y[i] - ref[i]));
                    }
                    if (max_diff / max_ref > gemm_worst) gemm_worst = max_diff / max_ref;
                }
                free(ws);
            }
            free(packed);
            free(y);
        }
        for (int t = 0; t < 3; t++) {
            for (int isa = 0; isa < test_isa_count; isa++) {
                if (fovea_kernels_set_isa(test_isas[isa]) != FOVEA_STATUS_OK) continue;
                size_t bytes = 0;
                void *packed = pack(&p, tiles[t], w, NULL, &bytes);
                if (packed == NULL) continue;
                const double error = run_and_measure(&p, packed, x, ref, NULL, NULL, 0, 2, 0, NULL);
                CHECK(error >= 0.0 && error <= tolerances[t], "F%zu %s: relative error %.3g > %.3g on C %zu",
                      tiles[t], test_isas[isa], error, tolerances[t], C);
                if (error > worst[t][isa]) worst[t][isa] = error;
                if (getenv("FOVEA_WINOGRAD_VERBOSE")) printf("    C %zu F%zu %s: %.2e\n", C, tiles[t], test_isas[isa], error);
                free(packed);
            }
        }
        free(x);
        free(w);
        free(ref);
    }
    fovea_kernels_set_isa("auto");
    printf("measured max|y - exact| / max|exact| (inputs U(0,1), weights N(0, 1/9C), C 16..512):\n");
    for (int t = 0; t < 3; t++) {
        printf("  F%zu (tolerance %.1e):", tiles[t], tolerances[t]);
        for (int isa = 0; isa < test_isa_count; isa++) {
            if (fovea_kernels_isa_supported(test_isas[isa])) printf("  %s %.2e", test_isas[isa], worst[t][isa]);
        }
        printf("\n");
    }
    printf("  im2col GEMM (fovea_conv2d_f32, active ISA), same data: %.2e\n", gemm_worst);
}

/* ---- Hand-checked numbers, ISA persistence, names ------------------------------------ */

static void known_values(void) {
    /* All-ones 3×3 kernel on a 3×3 input of ones, pad 1: counts of taps inside. */
    const fovea_conv2d_params p = conv3x3(1, 1, 1, 3, 3, 3, 3, 1, 1);
    const float x[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1}, w[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    const float want[9] = {4, 6, 4, 6, 9, 6, 4, 6, 4};
    for (int t = 0; t < 3; t++) {
        for (int isa = 0; isa < test_isa_count; isa++) {
            if (fovea_kernels_set_isa(test_isas[isa]) != FOVEA_STATUS_OK) continue;
            size_t bytes = 0;
            void *packed = pack(&p, tiles[t], w, NULL, &bytes);
            if (packed == NULL) continue;
            static unsigned char ws[1 << 18];
            float y[9];
            CHECK(fovea_winograd_workspace_size(packed, 1) <= sizeof ws, "workspace for a tiny layer");
            CHECK_STATUS(fovea_winograd_conv2d_f32(&p, packed, x, y, 9, NULL, NULL, ws, sizeof ws, test_pool(1)), FOVEA_STATUS_OK);
            for (int i = 0; i < 9; i++) {
                CHECK(fabs(y[i] - want[i]) <= 1e-5 * 9, "F%zu %s: ones, output %d is %.9g, expected %g", tiles[t],
                      test_isas[isa], i, (double)y[i], (double)want[i]);
            }
            /* The name says the tile and the ISA it was packed for. */
            const char *name = fovea_winograd_kernel_name(packed);
            char prefix[32];
            snprintf(prefix, sizeof prefix, "winograd_f%zux%zu_3x3 ", tiles[t], tiles[t]);
            CHECK(name != NULL && strncmp(name, prefix, strlen(prefix)) == 0 &&
                      strstr(name, test_fp32_isa(test_isas[isa])) != NULL,
                  "kernel name '%s' for F%zu %s", name ? name : "(null)", tiles[t], test_isas[isa]);
            CHECK(fovea_winograd_packed_tile(packed) == (int)tiles[t], "packed tile");
            free(packed);
        }
    }
    fovea_kernels_set_isa("auto");
}

/* Packed with one ISA, run while another is active: the packing ISA's code runs (same bits). */
static void isa_follows_packing(test_rng *rng) {
    const fovea_conv2d_params p = conv3x3(1, 5, 11, 13, 13, 13, 13, 1, 1);
    float x[5 * 13 * 13], w[11 * 5 * 9], first[11 * 13 * 13], second[11 * 13 * 13];
    fill_input(rng, x, sizeof x / sizeof x[0], 0);
    fill_weights(rng, w, sizeof w / sizeof w[0], 5);
    static unsigned char ws[1 << 20];
    for (int isa = 0; isa < test_isa_count; isa++) {
        if (fovea_kernels_set_isa(test_isas[isa]) != FOVEA_STATUS_OK) continue;
        size_t bytes = 0;
        void *packed = pack(&p, 4, w, NULL, &bytes);
        if (packed == NULL) continue;
        CHECK(fovea_winograd_workspace_size(packed, 2) <= sizeof ws, "workspace");
        CHECK_STATUS(fovea_winograd_conv2d_f32(&p, packed, x, first, 11 * 169, NULL, NULL, ws, sizeof ws, test_pool(2)),
                     FOVEA_STATUS_OK);
        for (int other = 0; other < test_isa_count; other++) {
            if (fovea_kernels_set_isa(test_isas[other]) != FOVEA_STATUS_OK) continue;
            CHECK(strstr(fovea_winograd_kernel_name(packed), test_fp32_isa(test_isas[isa])) != NULL, "name follows packing");
            CHECK_STATUS(fovea_winograd_conv2d_f32(&p, packed, x, second, 11 * 169, NULL, NULL, ws, sizeof ws, test_pool(2)),
                         FOVEA_STATUS_OK);
            CHECK(memcmp(first, second, sizeof first) == 0, "packed for %s, run with %s active: different result",
                  test_isas[isa], test_isas[other]);
        }
        fovea_kernels_set_isa(test_isas[isa]);
        free(packed);
    }
    fovea_kernels_set_isa("auto");
}

/* Pads larger than the kernel: outputs that read only padding give the bias (through the activation). */
static void wide_pads(void) {
    const fovea_conv2d_params p = conv3x3(1, 2, 3, 2, 3, 9, 10, 4, 5);
    float x[2 * 2 * 3], w[3 * 2 * 9], bias[3] = {0.25f, -0.5f, 1.0f};
    for (int i = 0; i < 12; i++) x[i] = (float)(i % 5) * 0.25f;
    for (int i = 0; i < 54; i++) w[i] = (float)((i * 7) % 11 - 5) * 0.1f;
    double ref[3 * 9 * 10];
    reference_conv2d(&p, w, bias, x, ref, NULL);
    const fovea_activation relu = {FOVEA_ACTIVATION_RELU, 0, 0, 0};
    for (int t = 0; t < 3; t++) {
        for (int isa = 0; isa < test_isa_count; isa++) {
            if (fovea_kernels_set_isa(test_isas[isa]) != FOVEA_STATUS_OK) continue;
            size_t bytes = 0;
            void *packed = pack(&p, tiles[t], w, bias, &bytes);
            if (packed == NULL) continue;
            const double error = run_and_measure(&p, packed, x, ref, NULL, &relu, 0, 1, 0, NULL);
            CHECK(error >= 0.0 && error <= tolerances[t], "F%zu %s: wide pads, error %.3g", tiles[t], test_isas[isa],
                  error);
            free(packed);
        }
    }
    fovea_kernels_set_isa("auto");
}

/*
 * Inputs that end at an inaccessible page on either side, at sizes where the
 * AVX-512 input transform's 8-float row windows meet a plane's first or last
 * float (plain loads inside a plane, masked ones across its edges, planes
 * smaller than a window): every tile, ISA and thread count 1 and 2 (the same
 * bits), batch 2, pads 0 and 1, channel counts that are not multiples of 16.
 */
static void plane_edges(test_rng *rng) {
    static const size_t sizes[][2] = {{2, 3}, {4, 4}, {7, 7}, {9, 14}, {14, 14}, {13, 6}};
    const fovea_activation relu = {FOVEA_ACTIVATION_RELU, 0, 0, 0};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        for (size_t pad = 0; pad < 2; pad++) {
            for (int at_end = 0; at_end < 2; at_end++) {
                const size_t H = sizes[si][0], W = sizes[si][1], C = at_end ? 17 : 5, M = 9;
                if (H + 2 * pad < 3 || W + 2 * pad < 3) continue;
                const fovea_conv2d_params p = conv3x3(2, C, M, H, W, H + 2 * pad - 2, W + 2 * pad - 2, pad, pad);
                char text[160];
                describe(&p, text, sizeof text);
                const size_t x_count = 2 * C * H * W, out_count = 2 * M * p.output_height * p.output_width;
                fenced_buffer x = fenced_alloc(x_count, at_end);
                float *w = (float *)malloc(M * C * 9 * sizeof(float)), *bias = (float *)malloc(M * sizeof(float));
                double *ref = (double *)malloc(out_count * sizeof(double));
                float *one = (float *)malloc(out_count * sizeof(float)), *two = (float *)malloc(out_count * sizeof(float));
                if (w == NULL || bias == NULL || ref == NULL || one == NULL || two == NULL) exit(2);
                fill_input(rng, x.data, x_count, 1);
                fill_weights(rng, w, M * C * 9, C);
                for (size_t i = 0; i < M; i++) bias[i] = 0.5f * rng_float(rng);
                reference_conv2d(&p, w, bias, x.data, ref, NULL);
                for (int t = 0; t < 3; t++) {
                    for (int isa = 0; isa < test_isa_count; isa++) {
                        if (fovea_kernels_set_isa(test_isas[isa]) != FOVEA_STATUS_OK) continue;
                        size_t bytes = 0;
                        void *packed = pack(&p, tiles[t], w, bias, &bytes);
                        if (packed == NULL) continue;
                        const double error = run_and_measure(&p, packed, x.data, ref, NULL, &relu, 0, 1, 0, one);
                        CHECK(error >= 0.0 && error <= tolerances[t], "F%zu %s: plane edges, error %.3g (%s)", tiles[t],
                              test_isas[isa], error, text);
                        run_and_measure(&p, packed, x.data, ref, NULL, &relu, 0, 2, 0, two);
                        CHECK(memcmp(one, two, out_count * sizeof(float)) == 0, "F%zu %s: 2 threads differ (%s)",
                              tiles[t], test_isas[isa], text);
                        free(packed);
                    }
                }
                fenced_free(&x);
                free(w);
                free(bias);
                free(ref);
                free(one);
                free(two);
            }
        }
    }
    fovea_kernels_set_isa("auto");
}

/* ---- Bad arguments ------------------------------------------------------------------------ */

static int untouched(const unsigned char *bytes, size_t count, unsigned char pattern) {
    for (size_t i = 0; i < count; i++) {
        if (bytes[i] != pattern) return 0;
    }
    return 1;
}

static void bad_arguments(void) {
    const fovea_conv2d_params good = conv3x3(2, 3, 5, 6, 7, 6, 7, 1, 1);
    float x[2 * 3 * 6 * 7], w[5 * 3 * 9], y[2 * 5 * 6 * 7 + 8];
    for (size_t i = 0; i < sizeof x / sizeof x[0]; i++) x[i] = (float)i * 0.01f;
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) w[i] = (float)((int)i % 7 - 3) * 0.1f;
    const size_t stride = 5 * 6 * 7;

    /* Sizes: 0 for shapes Winograd does not handle. */
    CHECK(fovea_winograd_packed_size(NULL, FOVEA_WINOGRAD_F4) == 0, "packed size of NULL params");
    CHECK(fovea_winograd_packed_size(&good, (fovea_winograd_tile)3) == 0, "packed size of tile 3");
    fovea_conv2d_params p = good;
    p.kernel_width = 5;
    CHECK(fovea_winograd_packed_size(&p, FOVEA_WINOGRAD_F4) == 0, "packed size of a 3x5 kernel");
    CHECK(fovea_winograd_workspace_size(NULL, 1) == 0, "workspace size of NULL");
    CHECK(fovea_winograd_kernel_name(NULL) == NULL, "name of NULL");
    CHECK(fovea_winograd_packed_tile(NULL) == 0, "tile of NULL");

    const size_t bytes = fovea_winograd_packed_size(&good, FOVEA_WINOGRAD_F4);
    unsigned char *packed = (unsigned char *)malloc(bytes + 64);
    if (packed == NULL) exit(2);

    /* Packing errors write nothing. */
    memset(packed, 0xA5, bytes + 64);
    CHECK_STATUS(fovea_winograd_pack(NULL, FOVEA_WINOGRAD_F4, w, NULL, packed, bytes), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_winograd_pack(&good, FOVEA_WINOGRAD_F4, NULL, NULL, packed, bytes), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_winograd_pack(&good, FOVEA_WINOGRAD_F4, w, NULL, NULL, bytes), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_winograd_pack(&good, (fovea_winograd_tile)8, w, NULL, packed, bytes),
                 FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(fovea_winograd_pack(&good, FOVEA_WINOGRAD_F4, w, NULL, packed, bytes - 1),
                 FOVEA_STATUS_BUFFER_TOO_SMALL);
    for (int what = 0; what < 6; what++) {
        p = good;
        switch (what) {
        case 0: p.kernel_height = p.kernel_width = 1; break;
        case 1: p.kernel_height = 5; break;
        case 2: p.stride_height = p.stride_width = 2; break;
        case 3: p.dilation_width = 2; break;
        case 4: p.channels = 4; p.output_channels = 4; p.groups = 2; break;
        default: p.stride_width = 0; break;
        }
        CHECK_STATUS(fovea_winograd_pack(&p, FOVEA_WINOGRAD_F4, w, NULL, packed, bytes), FOVEA_STATUS_INVALID_PARAMETER);
    }
    CHECK(untouched(packed, bytes + 64, 0xA5), "a failed pack wrote into packed");

    CHECK_STATUS(fovea_winograd_pack(&good, FOVEA_WINOGRAD_F4, w, NULL, packed, bytes), FOVEA_STATUS_OK);
    CHECK(untouched(packed + bytes, 64, 0xA5), "pack wrote past its size");
    const size_t ws_bytes = fovea_winograd_workspace_size(packed, 2);
    unsigned char *ws = (unsigned char *)malloc(ws_bytes);
    if (ws == NULL) exit(2);
    CHECK(fovea_winograd_workspace_size(packed, 1) < ws_bytes, "more threads need more workspace");

    /* Run errors write nothing into y. */
    const unsigned char pattern = 0x5A;
    memset(y, pattern, sizeof y);
#define RUN(params, pk, xx, yy, ystride, space, space_bytes, threads) \
    fovea_winograd_conv2d_f32(params, pk, xx, yy, ystride, NULL, NULL, space, space_bytes, threads)
    CHECK_STATUS(RUN(NULL, packed, x, y, stride, ws, ws_bytes, test_pool(1)), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(RUN(&good, NULL, x, y, stride, ws, ws_bytes, test_pool(1)), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(RUN(&good, packed, NULL, y, stride, ws, ws_bytes, test_pool(1)), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(RUN(&good, packed, x, NULL, stride, ws, ws_bytes, test_pool(1)), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(RUN(&good, packed, x, y, stride, NULL, ws_bytes, test_pool(1)), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(RUN(&good, packed, x, y, stride - 1, ws, ws_bytes, test_pool(1)), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(RUN(&good, packed, x, y, stride, ws, fovea_winograd_workspace_size(packed, 1) - 1, test_pool(1)),
                 FOVEA_STATUS_BUFFER_TOO_SMALL);
    CHECK_STATUS(RUN(&good, packed, x, y, stride, ws, ws_bytes - 1, test_pool(2)), FOVEA_STATUS_BUFFER_TOO_SMALL);
    p = good;
    p.stride_height = 2;
    p.output_height = 3;
    CHECK_STATUS(RUN(&p, packed, x, y, stride, ws, ws_bytes, test_pool(1)), FOVEA_STATUS_INVALID_PARAMETER);
    p = good;
    p.kernel_height = p.kernel_width = 1;
    p.pad_top = p.pad_left = 0;
    CHECK_STATUS(RUN(&p, packed, x, y, stride, ws, ws_bytes, test_pool(1)), FOVEA_STATUS_INVALID_PARAMETER);
    p = good;
    p.batch = 0;
    CHECK_STATUS(RUN(&p, packed, x, y, stride, ws, ws_bytes, test_pool(1)), FOVEA_STATUS_INVALID_PARAMETER);
    /* Packed for other channel counts, or not packed Winograd weights at all. */
    p = good;
    p.output_channels = 4;
    CHECK_STATUS(RUN(&p, packed, x, y, stride, ws, ws_bytes, test_pool(1)), FOVEA_STATUS_PACKING_MISMATCH);
    p = good;
    p.channels = 2;
    CHECK_STATUS(RUN(&p, packed, x, y, stride, ws, ws_bytes, test_pool(1)), FOVEA_STATUS_PACKING_MISMATCH);
    for (size_t at = 0; at < 48; at += 4) {
        unsigned char saved[4];
        memcpy(saved, packed + at, 4);
        packed[at] ^= 0x40;
        CHECK_STATUS(RUN(&good, packed, x, y, stride, ws, ws_bytes, test_pool(1)), FOVEA_STATUS_PACKING_MISMATCH);
        CHECK(fovea_winograd_workspace_size(packed, 1) == 0, "workspace size of a corrupted header (byte %zu)", at);
        CHECK(fovea_winograd_kernel_name(packed) == NULL, "name of a corrupted header");
        memcpy(packed + at, saved, 4);
    }
    float not_packed[64] = {0};
    CHECK_STATUS(RUN(&good, not_packed, x, y, stride, ws, ws_bytes, test_pool(1)), FOVEA_STATUS_PACKING_MISMATCH);
    CHECK(untouched((const unsigned char *)y, sizeof y, pattern), "a failed run wrote into y");

    /* And a good call still works after all that. */
    CHECK_STATUS(RUN(&good, packed, x, y, stride, ws, ws_bytes, test_pool(2)), FOVEA_STATUS_OK);
    CHECK(untouched((const unsigned char *)(y + 2 * stride), 8 * sizeof(float), pattern), "wrote past y");
#undef RUN
    free(ws);
    free(packed);
}

int main(void) {
    test_rng rng = {20261123u};
    printf("ISA: %s (default), OpenMP: %s, threads: %d\n", fovea_kernels_isa_name(),
           fovea_kernels_has_openmp() ? "yes" : "no", fovea_kernels_num_threads());
    for (int isa = 0; isa < test_isa_count; isa++) {
        printf("  %s: %s\n", test_isas[isa], fovea_kernels_isa_supported(test_isas[isa]) ? "tested" : "not supported here");
    }
    known_values();
    isa_follows_packing(&rng);
    wide_pads();
    plane_edges(&rng);
    bad_arguments();
    int cases = 0;
    for (int i = 0; cases < test_cases(200); i++) {
        const long before = test_checks;
        random_case(&rng, i);
        if (test_checks != before) cases++;
    }
    printf("random shapes: %d; worst relative error:\n", cases);
    for (int t = 0; t < 3; t++) {
        printf("  F%zu:", tiles[t]);
        for (int isa = 0; isa < test_isa_count; isa++) {
            if (fovea_kernels_isa_supported(test_isas[isa])) printf("  %s %.2e", test_isas[isa], worst_random[t][isa]);
        }
        printf("\n");
    }
    measured_error(&rng);
    return test_finish("test_winograd");
}
