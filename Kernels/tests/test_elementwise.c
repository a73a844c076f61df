/*
 * Elementwise kernels on every ISA the CPU supports, against naive loops
 * written here:
 *
 *  - fovea_binary_f32: Add / Sub / Mul / Div / Max / Min / Pow with every broadcast pattern
 *    (random ranks 0–6, rank differences, size-1 and size-0 dimensions, the
 *    fast paths: equal shapes, scalars, per-channel vectors), fused
 *    activations, in place, special values. Tolerance: none — one IEEE
 *    operation per element, so results must be bit-identical to the naive
 *    loop (any NaN matching any NaN).
 *  - fovea_activation_f32: bit-identical to the naive activation.
 *  - fovea_sigmoid_f32: within 2 ulp of the correctly rounded sigmoid
 *    (double-precision reference) over a dense sweep of [-110, 110], random
 *    bit patterns of every magnitude, and the special values.
 *  - Bad arguments: statuses, and nothing written.
 */
#include "support/reference.h"
#include "support/test_support.h"

#include <float.h>

/* ---- Expected results ------------------------------------------------------------ */

/* y = act(a op b) with broadcasting: the shared reference, then the activation. */
static void expected_binary(fovea_binary_op op, size_t a_rank, const size_t *a_shape, const float *a, size_t b_rank,
                            const size_t *b_shape, const float *b, size_t rank, const size_t *y_shape, float *y,
                            const fovea_activation *act) {
    reference_binary(op, a_rank, a_shape, a, b_rank, b_shape, b, rank, y_shape, y);
    size_t count = 1;
    for (size_t d = 0; d < rank; d++) count *= y_shape[d];
    for (size_t i = 0; i < count; i++) y[i] = (float)test_activation(act, y[i]);
}

static size_t shape_count(size_t rank, const size_t *shape) {
    size_t n = 1;
    for (size_t d = 0; d < rank; d++) n *= shape[d];
    return n;
}

static void shape_text(char *text, size_t size, size_t rank, const size_t *shape) {
    size_t used = (size_t)snprintf(text, size, "[");
    for (size_t d = 0; d < rank && used < size; d++) {
        used += (size_t)snprintf(text + used, size - used, d ? ",%zu" : "%zu", shape[d]);
    }
    if (used < size) snprintf(text + used, size - used, "]");
}

/* ---- Values ---------------------------------------------------------------------------- */

static float random_value(test_rng *rng, int special) {
    if (special) {
        switch (rng_int(rng, 0, 15)) {
        case 0: return NAN;
        case 1: return INFINITY;
        case 2: return -INFINITY;
        case 3: return 0.0f;
        case 4: return -0.0f;
        case 5: return FLT_MIN / 4; /* subnormal */
        case 6: return FLT_MAX;
        default: break;
        }
    }
    return rng_float(rng) * 4.0f;
}

static void fill(test_rng *rng, float *v, size_t count, int special) {
    for (size_t i = 0; i < count; i++) v[i] = random_value(rng, special);
}

static const char *const op_names[] = {"add", "sub", "mul", "div", "max", "min", "pow"};
enum { binary_op_count = 7 };

static fovea_activation random_activation(test_rng *rng, int *none) {
    fovea_activation a = {FOVEA_ACTIVATION_NONE, 0, 0, 0};
    *none = 0;
    switch (rng_int(rng, 0, 5)) {
    case 0: *none = 1; break;
    case 1: a.kind = FOVEA_ACTIVATION_RELU; break;
    case 2: a.kind = FOVEA_ACTIVATION_CLIP; a.min = 0.0f; a.max = 6.0f; break;
    case 3: a.kind = FOVEA_ACTIVATION_CLIP; a.min = -1.0f; a.max = 0.5f; break;
    case 4: a.kind = FOVEA_ACTIVATION_LEAKY_RELU; a.alpha = 0.01f; break;
    default: break; /* NONE given explicitly */
    }
    return a;
}

/* ---- Binary: one problem on every ISA ------------------------------------------------------ */

static long binary_cases = 0;

/*
 * in_place: 0 out of place, 1 y aliases a, 2 y aliases b (that input must have y's shape).
 */
static void check_binary(test_rng *rng, fovea_binary_op op, size_t a_rank, const size_t *a_shape, size_t b_rank,
                         const size_t *b_shape, const fovea_activation *act, int special, int in_place,
                         size_t threads) {
    const size_t rank = a_rank > b_rank ? a_rank : b_rank;
    size_t y_shape[8];
    for (size_t d = 0; d < rank; d++) {
        const size_t ad = d >= rank - a_rank ? a_shape[d - (rank - a_rank)] : 1;
        const size_t bd = d >= rank - b_rank ? b_shape[d - (rank - b_rank)] : 1;
        y_shape[d] = ad == 1 ? bd : ad;
    }
    const size_t na = shape_count(a_rank, a_shape), nb = shape_count(b_rank, b_shape), ny = shape_count(rank, y_shape);
    char ta[96], tb[96], text[300];
    shape_text(ta, sizeof ta, a_rank, a_shape);
    shape_text(tb, sizeof tb, b_rank, b_shape);
    snprintf(text, sizeof text, "%s %s %s act %d in_place %d threads %zu", op_names[op], ta, tb,
             act ? (int)act->kind : -1, in_place, threads);
    binary_cases++;

    float *a = (float *)malloc((na ? na : 1) * sizeof(float));
    float *b = (float *)malloc((nb ? nb : 1) * sizeof(float));
    float *want = (float *)malloc((ny ? ny : 1) * sizeof(float));
    if (a == NULL || b == NULL || want == NULL) exit(2);
    fill(rng, a, na, special);
    fill(rng, b, nb, special);
    expected_binary(op, a_rank, a_shape, a, b_rank, b_shape, b, rank, y_shape, want, act);

    for (int isa = 0; isa < test_isa_count; isa++) {
        if (!fovea_kernels_isa_supported(test_isas[isa])) continue;
        CHECK_STATUS(fovea_kernels_set_isa(test_isas[isa]), FOVEA_STATUS_OK);
        guarded_buffer y = guarded_alloc(ny, (size_t)rng_int(rng, 0, 3));
        const float *pa = a, *pb = b;
        if (in_place == 1) {
            memcpy(y.data, a, ny * sizeof(float));
            pa = y.data;
        } else if (in_place == 2) {
            memcpy(y.data, b, ny * sizeof(float));
            pb = y.data;
        }
        CHECK_STATUS(fovea_binary_f32(op, a_rank, a_shape, pa, b_rank, b_shape, pb, rank, y_shape, y.data, act, test_pool(threads)),
                     FOVEA_STATUS_OK);
        long bad = 0;
        size_t first = 0;
        for (size_t i = 0; i < ny; i++) {
            if (!same_float(y.data[i], want[i])) {
                if (bad++ == 0) first = i;
            }
        }
        CHECK(bad == 0, "[%s] %ld of %zu outputs differ, first #%zu: %.9g (0x%08x), want %.9g (0x%08x) (%s)",
              test_isas[isa], bad, ny, first, (double)y.data[first], (unsigned)float_bits(y.data[first]),
              (double)want[first], (unsigned)float_bits(want[first]), text);
        CHECK(guards_intact(&y), "[%s] wrote outside y (%s)", test_isas[isa], text);
        guarded_free(&y);
    }
    CHECK_STATUS(fovea_kernels_set_isa("auto"), FOVEA_STATUS_OK);
    free(a);
    free(b);
    free(want);
}

/* Random broadcasts: y's rank 0–6, each input drops leading dimensions or has 1s. */
static void random_binary(test_rng *rng, int cases) {
    static const size_t extents[] = {1, 2, 3, 4, 5, 7, 8, 16, 17, 31, 33};
    for (int c = 0; c < cases; c++) {
        const size_t rank = (size_t)(rng_int(rng, 0, 9) == 0 ? rng_int(rng, 0, 6) : rng_int(rng, 1, 4));
        size_t y_shape[6], a_shape[6], b_shape[6];
        size_t total = 1;
        for (size_t d = 0; d < rank; d++) {
            y_shape[d] = extents[rng_int(rng, 0, 10)];
            if (rng_int(rng, 0, 79) == 0) y_shape[d] = 0;
            total *= y_shape[d] ? y_shape[d] : 1;
        }
        if (total > 40000) {
            c--;
            continue;
        }
        /* Rank differences: one input may omit leading dimensions. */
        size_t a_rank = rank, b_rank = rank;
        if (rank > 0 && rng_int(rng, 0, 2) == 0) {
            if (rng_int(rng, 0, 1)) a_rank = (size_t)rng_int(rng, 0, (long)rank);
            else b_rank = (size_t)rng_int(rng, 0, (long)rank);
        }
        const long pattern = rng_int(rng, 0, 3); /* 0: mixed 1s, 1: a full, 2: b full, 3: both full */
        for (size_t d = 0; d < rank; d++) {
            const size_t yd = y_shape[d];
            size_t ad = (pattern == 1 || pattern == 3 || rng_int(rng, 0, 1)) ? yd : 1;
            size_t bd = (pattern == 2 || pattern == 3 || rng_int(rng, 0, 1)) ? yd : 1;
            if (ad == 1 && bd == 1 && yd != 1) {
                if (rng_int(rng, 0, 1)) ad = yd;
                else bd = yd;
            }
            if (d >= rank - a_rank) a_shape[d - (rank - a_rank)] = ad;
            if (d >= rank - b_rank) b_shape[d - (rank - b_rank)] = bd;
        }
        /* Omitted leading dimensions of an input must be 1 in y's eyes: make y come from the other input. */
        for (size_t d = 0; d < rank; d++) {
            if (d < rank - a_rank) b_shape[d - (rank - b_rank)] = y_shape[d];
            if (d < rank - b_rank) a_shape[d - (rank - a_rank)] = y_shape[d];
        }
        int none = 0;
        const fovea_activation act = random_activation(rng, &none);
        /* In place when an input has y's shape. */
        int in_place = 0;
        const size_t ny = shape_count(rank, y_shape);
        if (rng_int(rng, 0, 3) == 0) {
            if (a_rank == rank && shape_count(a_rank, a_shape) == ny) in_place = 1;
            else if (b_rank == rank && shape_count(b_rank, b_shape) == ny) in_place = 2;
        }
        check_binary(rng, (fovea_binary_op)rng_int(rng, 0, binary_op_count - 1), a_rank, a_shape, b_rank, b_shape, none ? NULL : &act,
                     c % 8 == 7, in_place, (size_t)rng_int(rng, 1, 3));
    }
}

/* The fast paths on sizes large enough to run on several threads. */
static void fast_paths(test_rng *rng) {
    const fovea_activation relu = {FOVEA_ACTIVATION_RELU, 0, 0, 0};
    const size_t nchw[4] = {2, 64, 28, 29}, channel[4] = {1, 64, 1, 1}, channel3[3] = {64, 1, 1};
    const size_t big[1] = {300001}, scalar[1] = {1}, row[2] = {1, 29}, column[4] = {2, 64, 28, 1};
    for (int op = 0; op < binary_op_count; op++) {
        check_binary(rng, (fovea_binary_op)op, 4, nchw, 4, nchw, &relu, 0, 1, 2);   /* residual Add + ReLU, in place */
        check_binary(rng, (fovea_binary_op)op, 4, nchw, 4, channel, NULL, 0, 0, 2); /* per-channel (BatchNorm-like) */
        check_binary(rng, (fovea_binary_op)op, 4, channel, 4, nchw, NULL, 0, 2, 3); /* per-channel first, y = b */
        check_binary(rng, (fovea_binary_op)op, 4, nchw, 3, channel3, NULL, 0, 0, 2); /* rank difference */
        check_binary(rng, (fovea_binary_op)op, 1, big, 0, NULL, NULL, 0, 0, 2);     /* a scalar (rank 0) */
        check_binary(rng, (fovea_binary_op)op, 1, scalar, 1, big, NULL, 1, 0, 3);   /* scalar first, specials */
        check_binary(rng, (fovea_binary_op)op, 1, big, 1, big, NULL, 1, 0, 2);      /* one long row, chunked */
        check_binary(rng, (fovea_binary_op)op, 4, nchw, 2, row, NULL, 0, 0, 2);     /* a row vector */
        check_binary(rng, (fovea_binary_op)op, 4, nchw, 4, column, NULL, 0, 0, 2);  /* a column vector */
        check_binary(rng, (fovea_binary_op)op, 2, row, 4, column, NULL, 0, 0, 2);   /* outer product shape */
    }
}

/* Special values through every op, in every lane of a SIMD body and tail. */
static void binary_special_values(void) {
    const float values[] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 1.0f, -1.0f, FLT_MIN / 8, FLT_MAX, 3.5f};
    enum { n = 10, count = n * n };
    float a[count], b[count], want[count], y[count];
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            a[i * n + j] = values[i];
            b[i * n + j] = values[j];
        }
    }
    const size_t shape[1] = {count};
    const fovea_activation acts[4] = {{FOVEA_ACTIVATION_NONE, 0, 0, 0},
                                      {FOVEA_ACTIVATION_RELU, 0, 0, 0},
                                      {FOVEA_ACTIVATION_CLIP, 0.0f, 6.0f, 0},
                                      {FOVEA_ACTIVATION_LEAKY_RELU, 0, 0, 0.1f}};
    for (int isa = 0; isa < test_isa_count; isa++) {
        if (fovea_kernels_set_isa(test_isas[isa]) != FOVEA_STATUS_OK) continue;
        for (int op = 0; op < binary_op_count; op++) {
            for (int k = 0; k < 4; k++) {
                for (int i = 0; i < count; i++) want[i] = (float)test_activation(&acts[k], reference_binary_op((fovea_binary_op)op, a[i], b[i]));
                CHECK_STATUS(fovea_binary_f32((fovea_binary_op)op, 1, shape, a, 1, shape, b, 1, shape, y, &acts[k], test_pool(1)),
                             FOVEA_STATUS_OK);
                for (int i = 0; i < count; i++) {
                    CHECK(same_float(y[i], want[i]), "[%s] %s act %d: %g op %g = %g (0x%08x), want %g (0x%08x)",
                          test_isas[isa], op_names[op], k, (double)a[i], (double)b[i], (double)y[i],
                          (unsigned)float_bits(y[i]), (double)want[i], (unsigned)float_bits(want[i]));
                }
            }
        }
        /* ReLU maps NaN to +0 and -0 to +0; Clip and LeakyReLU keep NaN. */
        const size_t one[1] = {1};
        const float nan_value = NAN, zero = 0.0f, minus_zero = -0.0f;
        float out = 1.0f;
        CHECK_STATUS(fovea_binary_f32(FOVEA_BINARY_ADD, 1, one, &nan_value, 1, one, &zero, 1, one, &out, &acts[1], test_pool(1)),
                     FOVEA_STATUS_OK);
        CHECK(float_bits(out) == 0u, "[%s] relu(NaN) is +0, got %g", test_isas[isa], (double)out);
        CHECK_STATUS(fovea_binary_f32(FOVEA_BINARY_ADD, 1, one, &minus_zero, 1, one, &minus_zero, 1, one, &out,
                                      &acts[1], test_pool(1)), FOVEA_STATUS_OK);
        CHECK(float_bits(out) == 0u, "[%s] relu(-0) is +0", test_isas[isa]);
        CHECK_STATUS(fovea_binary_f32(FOVEA_BINARY_ADD, 1, one, &nan_value, 1, one, &zero, 1, one, &out, &acts[2], test_pool(1)),
                     FOVEA_STATUS_OK);
        CHECK(isnan(out), "[%s] clip(NaN) is NaN", test_isas[isa]);
    }
    fovea_kernels_set_isa("auto");
}

/* ---- Unary activations and sigmoid ------------------------------------------------------------- */

static void activations(test_rng *rng) {
    const fovea_activation acts[5] = {{FOVEA_ACTIVATION_RELU, 0, 0, 0},
                                      {FOVEA_ACTIVATION_CLIP, 0.0f, 6.0f, 0},
                                      {FOVEA_ACTIVATION_CLIP, -0.5f, 0.25f, 0},
                                      {FOVEA_ACTIVATION_LEAKY_RELU, 0, 0, 0.2f},
                                      {FOVEA_ACTIVATION_NONE, 0, 0, 0}};
    for (int c = 0; c < 200; c++) {
        const size_t count = c < 190 ? (size_t)rng_int(rng, 0, 300) : (size_t)rng_int(rng, 100000, 300000);
        const int k = (int)rng_int(rng, 0, 5); /* 5: NULL */
        const fovea_activation *act = k < 5 ? &acts[k] : NULL;
        float *x = (float *)malloc((count ? count : 1) * sizeof(float));
        float *want = (float *)malloc((count ? count : 1) * sizeof(float));
        if (x == NULL || want == NULL) exit(2);
        fill(rng, x, count, c % 4 == 3);
        for (size_t i = 0; i < count; i++) want[i] = (float)test_activation(act, x[i]);
        for (int isa = 0; isa < test_isa_count; isa++) {
            if (fovea_kernels_set_isa(test_isas[isa]) != FOVEA_STATUS_OK) continue;
            const int in_place = (int)rng_int(rng, 0, 1);
            guarded_buffer y = guarded_alloc(count, (size_t)rng_int(rng, 0, 3));
            if (in_place) memcpy(y.data, x, count * sizeof(float));
            CHECK_STATUS(fovea_activation_f32(act, count, in_place ? y.data : x, y.data, test_pool((size_t)rng_int(rng, 1, 2))),
                         FOVEA_STATUS_OK);
            long bad = 0;
            for (size_t i = 0; i < count; i++) bad += !same_float(y.data[i], want[i]);
            CHECK(bad == 0, "[%s] activation %d: %ld of %zu differ (in place %d)", test_isas[isa], k, bad, count,
                  in_place);
            CHECK(guards_intact(&y), "[%s] activation wrote outside y", test_isas[isa]);
            guarded_free(&y);
        }
        free(x);
        free(want);
    }
    fovea_kernels_set_isa("auto");
}

/* The correctly rounded sigmoid (double is accurate enough to round right except in rare near-ties). */
static float reference_sigmoid(float x) {
    return (float)(1.0 / (1.0 + exp(-(double)x)));
}

/* Distance in representable floats between two non-negative floats. */
static long ulp_distance(float a, float b) {
    const long ia = (long)float_bits(a), ib = (long)float_bits(b);
    return ia > ib ? ia - ib : ib - ia;
}

static void sigmoid_accuracy(test_rng *rng) {
    enum { sweep = 200000, randoms = 200000, batch = 4096 };
    static float x[batch], y[batch];
    for (int isa = 0; isa < test_isa_count; isa++) {
        if (fovea_kernels_set_isa(test_isas[isa]) != FOVEA_STATUS_OK) continue;
        long worst = 0;
        float worst_x = 0;
        long checked = 0;
        for (long start = 0; start < sweep + randoms; start += batch) {
            const long n = start + batch <= sweep + randoms ? batch : sweep + randoms - start;
            for (long i = 0; i < n; i++) {
                const long k = start + i;
                if (k < sweep) x[i] = (float)(-110.0 + 220.0 * (double)k / sweep); /* dense over [-110, 110] */
                else {
                    /* any finite float: random sign, exponent and mantissa */
                    uint32_t bits = (uint32_t)rng_next(rng);
                    if ((bits & 0x7F800000u) == 0x7F800000u) bits &= 0xBFFFFFFFu;
                    x[i] = float_from_bits(bits);
                }
            }
            CHECK_STATUS(fovea_sigmoid_f32((size_t)n, x, y, test_pool(1)), FOVEA_STATUS_OK);
            for (long i = 0; i < n; i++) {
                const long d = ulp_distance(y[i], reference_sigmoid(x[i]));
                checked++;
                if (d > worst) {
                    worst = d;
                    worst_x = x[i];
                }
            }
        }
        printf("  sigmoid [%s]: worst %ld ulp (at x = %.9g) over %ld inputs\n", test_isas[isa], worst,
               (double)worst_x, checked);
        CHECK(worst <= 2, "[%s] sigmoid error %ld ulp at x = %.9g (sigmoid %.9g)", test_isas[isa], worst,
              (double)worst_x, (double)reference_sigmoid(worst_x));

        /* Special values, in place, every tail length. */
        const float specials[] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f, FLT_MAX, -FLT_MAX, 88.0f, -88.0f, -103.0f,
                                  -104.0f, -150.0f, 17.0f, FLT_MIN, -FLT_MIN / 16};
        const size_t ns = sizeof specials / sizeof specials[0];
        for (size_t len = 1; len <= ns; len++) {
            float v[16];
            memcpy(v, specials, len * sizeof(float));
            CHECK_STATUS(fovea_sigmoid_f32(len, v, v, test_pool(1)), FOVEA_STATUS_OK);
            for (size_t i = 0; i < len; i++) {
                const float want = reference_sigmoid(specials[i]);
                CHECK(isnan(specials[i]) ? isnan(v[i]) : ulp_distance(v[i], want) <= 2,
                      "[%s] sigmoid(%g) = %.9g, want %.9g", test_isas[isa], (double)specials[i], (double)v[i],
                      (double)want);
            }
        }
        float v3[3] = {-INFINITY, INFINITY, 0.0f};
        CHECK_STATUS(fovea_sigmoid_f32(3, v3, v3, test_pool(1)), FOVEA_STATUS_OK);
        CHECK(v3[0] == 0.0f && v3[1] == 1.0f && v3[2] == 0.5f, "[%s] sigmoid(-inf, inf, 0) = %g %g %g", test_isas[isa],
              (double)v3[0], (double)v3[1], (double)v3[2]);
    }
    /* Large and multithreaded: the same bits as one thread, no write outside y. */
    const size_t count = 250003;
    float *xs = (float *)malloc(count * sizeof(float));
    if (xs == NULL) exit(2);
    for (size_t i = 0; i < count; i++) xs[i] = rng_float(rng) * 30.0f;
    for (int isa = 0; isa < test_isa_count; isa++) {
        if (fovea_kernels_set_isa(test_isas[isa]) != FOVEA_STATUS_OK) continue;
        guarded_buffer one = guarded_alloc(count, 1), many = guarded_alloc(count, 2);
        CHECK_STATUS(fovea_sigmoid_f32(count, xs, one.data, test_pool(1)), FOVEA_STATUS_OK);
        CHECK_STATUS(fovea_sigmoid_f32(count, xs, many.data, test_pool(2)), FOVEA_STATUS_OK);
        CHECK(memcmp(one.data, many.data, count * sizeof(float)) == 0, "[%s] sigmoid: threads differ", test_isas[isa]);
        CHECK(guards_intact(&one) && guards_intact(&many), "[%s] sigmoid wrote outside y", test_isas[isa]);
        guarded_free(&one);
        guarded_free(&many);
    }
    free(xs);
    fovea_kernels_set_isa("auto");
}

/* Inputs against inaccessible pages: no variant reads past either end. */
static void fenced_inputs(test_rng *rng) {
    for (size_t count = 1; count <= 70; count++) {
        fenced_buffer a = fenced_alloc(count, (int)(count % 2)), b = fenced_alloc(count, (int)(count % 2 == 0));
        fill(rng, a.data, count, 0);
        fill(rng, b.data, count, 0);
        float y[70];
        const size_t shape[1] = {count}, one[1] = {1};
        for (int isa = 0; isa < test_isa_count; isa++) {
            if (fovea_kernels_set_isa(test_isas[isa]) != FOVEA_STATUS_OK) continue;
            CHECK_STATUS(fovea_binary_f32(FOVEA_BINARY_DIV, 1, shape, a.data, 1, shape, b.data, 1, shape, y, NULL, test_pool(1)),
                         FOVEA_STATUS_OK);
            CHECK_STATUS(fovea_binary_f32(FOVEA_BINARY_SUB, 1, one, a.data, 1, shape, b.data, 1, shape, y, NULL, test_pool(1)),
                         FOVEA_STATUS_OK);
            CHECK_STATUS(fovea_sigmoid_f32(count, a.data, y, test_pool(1)), FOVEA_STATUS_OK);
            const fovea_activation relu = {FOVEA_ACTIVATION_RELU, 0, 0, 0};
            CHECK_STATUS(fovea_activation_f32(&relu, count, b.data, y, test_pool(1)), FOVEA_STATUS_OK);
        }
        fenced_free(&a);
        fenced_free(&b);
    }
    fovea_kernels_set_isa("auto");
}

/* ---- Bad arguments ------------------------------------------------------------------------------ */

static void bad_arguments(void) {
    float a[24] = {0}, b[24] = {0}, y[48];
    const size_t s23[2] = {2, 3}, s32[2] = {3, 2}, s3[1] = {3}, s13[2] = {1, 3}, s2[1] = {2};
    const size_t s1111111[7] = {1, 1, 1, 1, 1, 1, 1};
    CHECK_STATUS(fovea_binary_f32(FOVEA_BINARY_ADD, 2, s23, a, 1, s3, b, 2, s23, y, NULL, test_pool(1)), FOVEA_STATUS_OK);

    for (int i = 0; i < 48; i++) y[i] = 42.0f;
    /* Mismatched broadcast: [2,3] with [2] (trailing 3 vs 2). */
    CHECK_STATUS(fovea_binary_f32(FOVEA_BINARY_ADD, 2, s23, a, 1, s2, b, 2, s23, y, NULL, test_pool(1)),
                 FOVEA_STATUS_INVALID_PARAMETER);
    /* Wrong y shape, wrong y rank. */
    CHECK_STATUS(fovea_binary_f32(FOVEA_BINARY_ADD, 2, s23, a, 1, s3, b, 2, s32, y, NULL, test_pool(1)),
                 FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(fovea_binary_f32(FOVEA_BINARY_ADD, 2, s23, a, 1, s3, b, 1, s3, y, NULL, test_pool(1)),
                 FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(fovea_binary_f32(FOVEA_BINARY_ADD, 2, s13, a, 2, s13, b, 2, s23, y, NULL, test_pool(1)),
                 FOVEA_STATUS_INVALID_PARAMETER);
    /* Rank above 6. */
    CHECK_STATUS(fovea_binary_f32(FOVEA_BINARY_ADD, 7, s1111111, a, 7, s1111111, b, 7, s1111111, y, NULL, test_pool(1)),
                 FOVEA_STATUS_INVALID_PARAMETER);
    /* Unknown op or activation. */
    CHECK_STATUS(fovea_binary_f32((fovea_binary_op)binary_op_count, 2, s23, a, 2, s23, b, 2, s23, y, NULL, test_pool(1)),
                 FOVEA_STATUS_INVALID_PARAMETER);
    const fovea_activation bogus = {(fovea_activation_kind)7, 0, 0, 0};
    CHECK_STATUS(fovea_binary_f32(FOVEA_BINARY_ADD, 2, s23, a, 2, s23, b, 2, s23, y, &bogus, test_pool(1)),
                 FOVEA_STATUS_INVALID_PARAMETER);
    /* NULL pointers. */
    CHECK_STATUS(fovea_binary_f32(FOVEA_BINARY_ADD, 2, s23, NULL, 2, s23, b, 2, s23, y, NULL, test_pool(1)),
                 FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_binary_f32(FOVEA_BINARY_ADD, 2, s23, a, 2, s23, NULL, 2, s23, y, NULL, test_pool(1)),
                 FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_binary_f32(FOVEA_BINARY_ADD, 2, s23, a, 2, s23, b, 2, s23, NULL, NULL, test_pool(1)),
                 FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_binary_f32(FOVEA_BINARY_ADD, 2, NULL, a, 2, s23, b, 2, s23, y, NULL, test_pool(1)),
                 FOVEA_STATUS_NULL_POINTER);
    /* Overflowing sizes. */
    const size_t huge[2] = {(size_t)1 << 40, (size_t)1 << 40};
    CHECK_STATUS(fovea_binary_f32(FOVEA_BINARY_ADD, 2, huge, a, 2, huge, b, 2, huge, y, NULL, test_pool(1)),
                 FOVEA_STATUS_TOO_LARGE);
    int untouched = 1;
    for (int i = 0; i < 48; i++) untouched &= y[i] == 42.0f;
    CHECK(untouched, "binary wrote its output despite an error");

    /* Aliasing: y == a is fine only when a has y's shape; partial overlaps are refused. */
    float buffer[64] = {0};
    CHECK_STATUS(fovea_binary_f32(FOVEA_BINARY_ADD, 2, s23, buffer, 1, s3, b, 2, s23, buffer, NULL, test_pool(1)),
                 FOVEA_STATUS_OK);
    CHECK_STATUS(fovea_binary_f32(FOVEA_BINARY_ADD, 1, s3, buffer, 2, s23, b, 2, s23, buffer, NULL, test_pool(1)),
                 FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(fovea_binary_f32(FOVEA_BINARY_ADD, 2, s23, buffer, 2, s23, b, 2, s23, buffer + 1, NULL, test_pool(1)),
                 FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(fovea_binary_f32(FOVEA_BINARY_ADD, 2, s23, a, 2, s23, buffer + 5, 2, s23, buffer, NULL, test_pool(1)),
                 FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(fovea_binary_f32(FOVEA_BINARY_ADD, 2, s23, a, 2, s23, buffer + 6, 2, s23, buffer, NULL, test_pool(1)),
                 FOVEA_STATUS_OK); /* adjacent, not overlapping */

    /* Empty outputs: OK with NULL data, even against a broadcast 1. */
    const size_t s03[2] = {0, 3};
    CHECK_STATUS(fovea_binary_f32(FOVEA_BINARY_MUL, 2, s03, NULL, 2, s13, NULL, 2, s03, NULL, NULL, test_pool(1)),
                 FOVEA_STATUS_OK);
    const size_t s0[1] = {0};
    CHECK_STATUS(fovea_binary_f32(FOVEA_BINARY_MUL, 1, s0, NULL, 1, s2, NULL, 1, s2, NULL, NULL, test_pool(1)),
                 FOVEA_STATUS_INVALID_PARAMETER); /* 0 against 2 does not broadcast */
    /* Rank 0 with rank 0: one element, shapes may be NULL. */
    const float two = 2.0f, three = 3.0f;
    float six = 0.0f;
    CHECK_STATUS(fovea_binary_f32(FOVEA_BINARY_MUL, 0, NULL, &two, 0, NULL, &three, 0, NULL, &six, NULL, test_pool(1)),
                 FOVEA_STATUS_OK);
    CHECK(six == 6.0f, "2 * 3 = %g", (double)six);

    /* Unary. */
    const fovea_activation relu = {FOVEA_ACTIVATION_RELU, 0, 0, 0};
    CHECK_STATUS(fovea_activation_f32(&relu, 4, NULL, y, test_pool(1)), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_activation_f32(&relu, 4, a, NULL, test_pool(1)), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_activation_f32(&bogus, 4, a, y, test_pool(1)), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(fovea_activation_f32(&relu, 4, buffer, buffer + 2, test_pool(1)), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(fovea_activation_f32(&relu, 0, NULL, NULL, test_pool(1)), FOVEA_STATUS_OK);
    CHECK_STATUS(fovea_activation_f32(&relu, SIZE_MAX / 2, a, y, test_pool(1)), FOVEA_STATUS_TOO_LARGE);
    CHECK_STATUS(fovea_sigmoid_f32(4, NULL, y, test_pool(1)), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_sigmoid_f32(4, buffer + 1, buffer, test_pool(1)), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(fovea_sigmoid_f32(0, NULL, NULL, test_pool(1)), FOVEA_STATUS_OK);
    CHECK_STATUS(fovea_sigmoid_f32(SIZE_MAX / 2, a, y, test_pool(1)), FOVEA_STATUS_TOO_LARGE);
}

int main(void) {
    test_rng rng = {0xE1E3E17ull};
    printf("ISA: %s (default), OpenMP: %s\n", fovea_kernels_isa_name(), fovea_kernels_has_openmp() ? "yes" : "no");
    for (int isa = 0; isa < test_isa_count; isa++) {
        printf("  %s: %s\n", test_isas[isa], fovea_kernels_isa_supported(test_isas[isa]) ? "tested" : "not supported here");
    }
    bad_arguments();
    binary_special_values();
    fast_paths(&rng);
    random_binary(&rng, 600);
    activations(&rng);
    fenced_inputs(&rng);
    sigmoid_accuracy(&rng);
    printf("binary problems: %ld\n", binary_cases);
    return test_finish("test_elementwise");
}
