/*
 * The public Winograd transforms (fovea_winograd_input_transform_f32 /
 * _output_transform_f32): every supported ISA and tile size against Bᵀ d B and
 * Aᵀ M A computed naively in double from Lavin & Gray's matrices written out
 * here, on ragged blocks and padded strides; reads stay inside the patches
 * (fenced input), writes inside the documented elements; every refusal status
 * with nothing written.
 */
#include "support/test_support.h"

#include <stdint.h>

/* Bᵀ (α×α) and Aᵀ (m×α) of F(2,3), F(4,3), F(6,3), row-major. */
static const double bt2[4 * 4] = {1, 0, -1, 0, 0, 1, 1, 0, 0, -1, 1, 0, 0, 1, 0, -1};
static const double at2[2 * 4] = {1, 1, 1, 0, 0, 1, -1, -1};
static const double bt4[6 * 6] = {4, 0, -5, 0, 1, 0,  0, -4, -4, 1, 1, 0, 0, 4, -4, -1, 1, 0,
                                  0, -2, -1, 2, 1, 0, 0, 2, -1, -2, 1, 0, 0, 4, 0, -5, 0, 1};
static const double at4[4 * 6] = {1, 1, 1, 1, 1, 0, 0, 1, -1, 2, -2, 0, 0, 1, 1, 4, 4, 0, 0, 1, -1, 8, -8, 1};
static const double bt6[8 * 8] = {
    1, 0,    -5.25, 0,     5.25,  0,     -1, 0, 0, 1,    1,    -4.25, -4.25, 1,    1, 0,
    0, -1,   1,     4.25,  -4.25, -1,    1,  0, 0, 0.5,  0.25, -2.5,  -1.25, 2,    1, 0,
    0, -0.5, 0.25,  2.5,   -1.25, -2,    1,  0, 0, 2,    4,    -2.5,  -5,    0.5,  1, 0,
    0, -2,   4,     2.5,   -5,    -0.5,  1,  0, 0, -1,   0,    5.25,  0,     -5.25, 0, 1};
static const double at6[6 * 8] = {1, 1, 1,  1,  1,   1,      1,       0, 0, 1, -1, 2,  -2,  0.5,    -0.5,    0,
                                  0, 1, 1,  4,  4,   0.25,   0.25,    0, 0, 1, -1, 8,  -8,  0.125,  -0.125,  0,
                                  0, 1, 1,  16, 16,  0.0625, 0.0625,  0, 0, 1, -1, 32, -32, 0.03125, -0.03125, 1};

static const double *bt_of(size_t m) { return m == 2 ? bt2 : m == 4 ? bt4 : bt6; }
static const double *at_of(size_t m) { return m == 2 ? at2 : m == 4 ? at4 : at6; }

static const fovea_activation activations[] = {
    {FOVEA_ACTIVATION_NONE, 0, 0, 0},
    {FOVEA_ACTIVATION_RELU, 0, 0, 0},
    {FOVEA_ACTIVATION_CLIP, -0.5f, 0.75f, 0},
    {FOVEA_ACTIVATION_LEAKY_RELU, 0, 0, 0.1f},
};

static size_t block_nr(const char *isa) {
    size_t mr = 0, nr = 0;
    fovea_gemm_microkernel_tile(isa, &mr, &nr);
    return nr;
}

static void check_input(const char *isa, size_t m, size_t channels, size_t tiles, test_rng *rng) {
    const size_t alpha = m + 2, nr = block_nr(isa), points = alpha * alpha;
    const size_t row_stride = tiles * m + 2 + (size_t)rng_int(rng, 0, 3);
    const size_t channel_stride = alpha * row_stride + (size_t)rng_int(rng, 0, 5);
    const size_t point_stride = channels * nr + (size_t)rng_int(rng, 0, 16);
    /* Exactly the floats the header says x holds, against an inaccessible page. */
    const size_t x_count = (channels - 1) * channel_stride + (alpha - 1) * row_stride + tiles * m + 2;
    fenced_buffer x = fenced_alloc(x_count, 1);
    for (size_t i = 0; i < x_count; i++) x.data[i] = rng_float(rng);
    const size_t v_count = (points - 1) * point_stride + channels * nr;
    guarded_buffer v = guarded_alloc(v_count, (size_t)rng_int(rng, 0, 3));
    for (size_t i = 0; i < v_count; i++) v.data[i] = float_from_bits(guard_bits);

    CHECK_STATUS(fovea_winograd_input_transform_f32(isa, (fovea_winograd_tile)m, channels, tiles, x.data, row_stride,
                                                    channel_stride, v.data, point_stride),
                 FOVEA_STATUS_OK);
    const double *bt = bt_of(m);
    double worst = 0;
    int wrong_empty = 0, gap_written = 0;
    for (size_t c = 0; c < channels; c++) {
        for (size_t t = 0; t < nr; t++) {
            for (size_t i = 0; i < alpha; i++) {
                for (size_t j = 0; j < alpha; j++) {
                    const float got = v.data[(i * alpha + j) * point_stride + c * nr + t];
                    if (t >= tiles) {
                        wrong_empty |= got != 0.0f;
                        continue;
                    }
                    double sum = 0, magnitude = 0;
                    for (size_t u = 0; u < alpha; u++) {
                        for (size_t k = 0; k < alpha; k++) {
                            const double d = x.data[c * channel_stride + u * row_stride + t * m + k];
                            const double term = bt[i * alpha + u] * d * bt[j * alpha + k];
                            sum += term;
                            magnitude += fabs(term);
                        }
                    }
                    const double error = fabs(got - sum) / (magnitude + 1e-30);
                    if (!(error <= worst)) worst = error;
                }
            }
        }
    }
    for (size_t xi = 0; xi + 1 < points; xi++) {
        for (size_t i = channels * nr; i < point_stride; i++) {
            gap_written |= float_bits(v.data[xi * point_stride + i]) != guard_bits;
        }
    }
    CHECK(worst <= 2e-6, "%s F%zu input C=%zu tiles=%zu: relative error %g", isa, m, channels, tiles, worst);
    CHECK(!wrong_empty, "%s F%zu input tiles=%zu: an empty lane is not 0", isa, m, tiles);
    CHECK(!gap_written && guards_intact(&v), "%s F%zu input: wrote outside the panels", isa, m);
    guarded_free(&v);
    fenced_free(&x);
}

static void check_output(const char *isa, size_t m, size_t rows, size_t tiles, test_rng *rng) {
    const size_t alpha = m + 2, nr = block_nr(isa), points = alpha * alpha;
    const size_t row_stride = tiles * m + (size_t)rng_int(rng, 0, 3);
    const size_t channel_stride = m * row_stride + (size_t)rng_int(rng, 0, 5);
    const fovea_activation *activation = rng_int(rng, 0, 4) == 0 ? NULL : &activations[rng_int(rng, 0, 3)];
    const int use_bias = (int)rng_int(rng, 0, 1);
    fenced_buffer s = fenced_alloc(rows * points * nr, (int)rng_int(rng, 0, 1));
    for (size_t i = 0; i < rows * points * nr; i++) s.data[i] = rng_float(rng);
    float bias[64];
    for (size_t r = 0; r < 64; r++) bias[r] = rng_float(rng);
    const size_t y_count = (rows - 1) * channel_stride + (m - 1) * row_stride + tiles * m;
    guarded_buffer y = guarded_alloc(y_count, (size_t)rng_int(rng, 0, 3));
    for (size_t i = 0; i < y_count; i++) y.data[i] = float_from_bits(guard_bits);

    CHECK_STATUS(fovea_winograd_output_transform_f32(isa, (fovea_winograd_tile)m, rows, tiles, s.data,
                                                     use_bias ? bias : NULL, activation, y.data, row_stride,
                                                     channel_stride),
                 FOVEA_STATUS_OK);
    const double *at = at_of(m);
    double worst = 0;
    size_t written = 0, expected_written = 0;
    for (size_t i = 0; i < y_count; i++) written += float_bits(y.data[i]) != guard_bits;
    for (size_t r = 0; r < rows; r++) {
        for (size_t t = 0; t < tiles; t++) {
            for (size_t i = 0; i < m; i++) {
                for (size_t j = 0; j < m; j++) {
                    double sum = 0, magnitude = 0;
                    for (size_t u = 0; u < alpha; u++) {
                        for (size_t k = 0; k < alpha; k++) {
                            const double term = at[i * alpha + u] * s.data[(r * points + u * alpha + k) * nr + t] *
                                                 at[j * alpha + k];
                            sum += term;
                            magnitude += fabs(term);
                        }
                    }
                    if (use_bias) {
                        sum += bias[r];
                        magnitude += fabs(bias[r]);
                    }
                    if (activation != NULL) sum = test_activation(activation, sum);
                    const float got = y.data[r * channel_stride + i * row_stride + t * m + j];
                    expected_written++;
                    const double error = fabs(got - sum) / (magnitude + 1e-30);
                    if (!(error <= worst)) worst = error;
                }
            }
        }
    }
    CHECK(worst <= 2e-6, "%s F%zu output rows=%zu tiles=%zu: relative error %g", isa, m, rows, tiles, worst);
    CHECK(written == expected_written && guards_intact(&y), "%s F%zu output: wrote %zu floats, expected %zu", isa, m,
          written, expected_written);
    guarded_free(&y);
    fenced_free(&s);
}

/* Every refusal returns its status and writes nothing. */
static void check_refusals(const char *isa) {
    const size_t nr = block_nr(isa);
    static float x[8 * 8 * 300], v[64 * 4 * 32 + 64], y[6 * 200 * 4];
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) v[i] = 7.0f;
    for (size_t i = 0; i < sizeof y / sizeof *y; i++) y[i] = 7.0f;
    const size_t rs = nr * 2 + 2, cs = 4 * rs, ps = 2 * nr; /* F2, 2 channels, nr tiles */
#define IN(isa_, tile_, c_, t_, x_, rs_, cs_, v_, ps_) \
    fovea_winograd_input_transform_f32(isa_, (fovea_winograd_tile)(tile_), c_, t_, x_, rs_, cs_, v_, ps_)
    CHECK_STATUS(IN(isa, 2, 2, nr, x, rs, cs, v, ps), FOVEA_STATUS_OK);
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) v[i] = 7.0f;
    CHECK_STATUS(IN("avx1024", 2, 2, nr, x, rs, cs, v, ps), FOVEA_STATUS_UNKNOWN_ISA);
    CHECK_STATUS(IN("auto", 2, 2, nr, x, rs, cs, v, ps), FOVEA_STATUS_UNKNOWN_ISA);
    CHECK_STATUS(IN("bogus", 3, 2, nr, NULL, rs, cs, v, ps), FOVEA_STATUS_UNKNOWN_ISA);
    CHECK_STATUS(IN(isa, 3, 2, nr, NULL, rs, cs, v, ps), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(IN(isa, 8, 2, nr, x, rs, cs, v, ps), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(IN(isa, 2, 2, nr, NULL, rs, cs, v, ps), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(IN(isa, 2, 2, nr, x, rs, cs, NULL, ps), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(IN(isa, 2, 0, nr, x, rs, cs, v, ps), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(IN(isa, 2, FOVEA_KERNELS_MAX_EXTENT + 1, nr, x, rs, cs, v, SIZE_MAX), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(IN(isa, 2, 2, 0, x, rs, cs, v, ps), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(IN(isa, 2, 2, nr + 1, x, rs + 2, 4 * (rs + 2), v, ps), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(IN(isa, 2, 2, nr, x, rs - 1, cs, v, ps), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(IN(isa, 2, 2, nr, x, rs, cs - 1, v, ps), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(IN(isa, 2, 2, nr, x, rs, cs, v, ps - 1), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(IN(isa, 2, 2, nr, x, rs, SIZE_MAX / 2, v, ps), FOVEA_STATUS_TOO_LARGE);
    CHECK_STATUS(IN(isa, 2, 2, nr, x, SIZE_MAX / 8, SIZE_MAX / 2, v, ps), FOVEA_STATUS_TOO_LARGE);
    CHECK_STATUS(IN(isa, 2, 2, nr, x, rs, cs, v, SIZE_MAX / 8), FOVEA_STATUS_TOO_LARGE);
#undef IN
    int untouched = 1;
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) untouched &= v[i] == 7.0f;
    CHECK(untouched, "%s: a refused input transform wrote v", isa);

    const size_t yrs = nr * 2, ycs = 2 * yrs; /* F2, 2 output channels */
    const fovea_activation relu = {FOVEA_ACTIVATION_RELU, 0, 0, 0};
#define OUT(isa_, tile_, r_, t_, s_, y_, rs_, cs_) \
    fovea_winograd_output_transform_f32(isa_, (fovea_winograd_tile)(tile_), r_, t_, s_, NULL, &relu, y_, rs_, cs_)
    CHECK_STATUS(OUT("avx1024", 2, 2, nr, v, y, yrs, ycs), FOVEA_STATUS_UNKNOWN_ISA);
    CHECK_STATUS(OUT(isa, 5, 2, nr, v, y, yrs, ycs), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(OUT(isa, 2, 2, nr, NULL, y, yrs, ycs), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(OUT(isa, 2, 2, nr, v, NULL, yrs, ycs), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(OUT(isa, 2, 0, nr, v, y, yrs, ycs), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(OUT(isa, 2, FOVEA_KERNELS_MAX_EXTENT + 1, nr, v, y, yrs, SIZE_MAX), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(OUT(isa, 2, 2, 0, v, y, yrs, ycs), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(OUT(isa, 2, 2, nr + 1, v, y, yrs + 2, 2 * (yrs + 2)), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(OUT(isa, 2, 2, nr, v, y, yrs - 1, ycs), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(OUT(isa, 2, 2, nr, v, y, yrs, ycs - 1), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(OUT(isa, 2, 2, nr, v, y, yrs, SIZE_MAX / 2), FOVEA_STATUS_TOO_LARGE);
    CHECK_STATUS(OUT(isa, 2, 2, nr, v, y, SIZE_MAX / 4, SIZE_MAX / 2), FOVEA_STATUS_TOO_LARGE);
#undef OUT
    untouched = 1;
    for (size_t i = 0; i < sizeof y / sizeof *y; i++) untouched &= y[i] == 7.0f;
    CHECK(untouched, "%s: a refused output transform wrote y", isa);
}

int main(void) {
    test_rng rng = {777};
    for (int isa = 0; isa < test_isa_count; isa++) {
        const char *name = test_isas[isa];
        if (!fovea_kernels_isa_supported(name)) {
            printf("skipping %s (not supported here)\n", name);
            CHECK_STATUS(fovea_winograd_input_transform_f32(name, FOVEA_WINOGRAD_F2, 1, 1, NULL, 0, 0, NULL, 0),
                         FOVEA_STATUS_UNSUPPORTED_ISA);
            continue;
        }
        const size_t nr = block_nr(name);
        for (size_t m = 2; m <= 6; m += 2) {
            const size_t channels[] = {1, 3, 16, 17, 64};
            for (size_t i = 0; i < sizeof channels / sizeof *channels; i++) {
                check_input(name, m, channels[i], nr, &rng);
                check_input(name, m, channels[i], (size_t)rng_int(&rng, 1, (long)nr), &rng);
                check_output(name, m, channels[i], nr, &rng);
                check_output(name, m, channels[i], (size_t)rng_int(&rng, 1, (long)nr), &rng);
            }
            check_input(name, m, 5, 1, &rng);
            check_output(name, m, 5, 1, &rng);
        }
        check_refusals(name);
        /* NULL is the ISA kernel calls use now. */
        CHECK_STATUS(fovea_kernels_set_isa(name), FOVEA_STATUS_OK);
        float x[4 * 11] = {0}, v[16 * 8 * 4];
        if (nr == 8) {
            CHECK_STATUS(fovea_winograd_input_transform_f32(NULL, FOVEA_WINOGRAD_F2, 1, 4, x, 11, 44, v, 8),
                         FOVEA_STATUS_OK);
        } else {
            CHECK_STATUS(fovea_winograd_input_transform_f32(NULL, FOVEA_WINOGRAD_F2, 1, 4, x, 11, 44, v, 8),
                         FOVEA_STATUS_INVALID_PARAMETER); /* a point stride of 8 is too small for NR = 16 or 32 */
        }
        CHECK_STATUS(fovea_kernels_set_isa("auto"), FOVEA_STATUS_OK);
    }
    return test_finish("winograd_public");
}
