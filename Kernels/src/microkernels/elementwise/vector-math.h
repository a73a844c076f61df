/*
 * Vectorized float math, written once with GCC / clang vector extensions and
 * compiled per ISA: a unary-<isa>.c file defines
 *
 *   VM_TARGET       the function attribute (FOVEA_TARGET_AVX512, ...; empty for portable code)
 *   VM_LANES        floats per vector
 *   VM_NAME(name)   a per-ISA name for each function below
 *   VM_SQRT(v)      the correctly rounded square root of a vector
 *
 * and includes this header. No libm, no lookup tables: every function is
 * branch-free selects over whole vectors, so one vector of 16 floats costs the
 * same whatever its values. Error bounds are in include/fovea_unary.h and are
 * checked by tests/test_unary.c.
 *
 * Include only from the unary-*.c files (each includes it once).
 */
#include <stdint.h>

typedef float vm_f __attribute__((vector_size(VM_LANES * 4)));
typedef int32_t vm_i __attribute__((vector_size(VM_LANES * 4)));
/* Bit arithmetic that may wrap (exponent tricks on NaN and inf bit patterns) is done
 * unsigned: signed overflow is undefined behaviour, and UBSan reports it. */
typedef uint32_t vm_u __attribute__((vector_size(VM_LANES * 4)));

#define VM_F(c) ((vm_f){0} + (float)(c))
#define VM_I(c) ((vm_i){0} + (int32_t)(c))
#define VM_FN static inline VM_TARGET

/* m ? a : b, lane by lane (m is all ones or all zeros per lane, as comparisons give). */
VM_FN vm_f VM_NAME(select)(vm_i m, vm_f a, vm_f b) { return (vm_f)((m & (vm_i)a) | (~m & (vm_i)b)); }
#define VM_SELECT VM_NAME(select)

VM_FN vm_f VM_NAME(abs)(vm_f x) { return (vm_f)((vm_i)x & VM_I(0x7FFFFFFF)); }
/* |magnitude| with the sign of `sign`. */
VM_FN vm_f VM_NAME(copysign)(vm_f magnitude, vm_f sign) {
    return (vm_f)(((vm_i)magnitude & VM_I(0x7FFFFFFF)) | ((vm_i)sign & VM_I((int32_t)0x80000000u)));
}
/* Lanes that are NaN keep the input's NaN (every function maps NaN to NaN). */
VM_FN vm_f VM_NAME(keep_nan)(vm_f x, vm_f y) { return VM_SELECT(x != x, x, y); }

/* Round to the nearest integer (ties to even) for |x| < 2^22; NaN stays NaN. */
VM_FN vm_f VM_NAME(round)(vm_f x) {
    const vm_f magic = VM_F(0x1.8p23f);
    return (x + magic) - magic;
}

/* The nearest integer for |x| < 2^23 (|x| + 2^23 has ulp 1), with x's sign. */
VM_FN vm_f VM_NAME(round_small)(vm_f x) {
    const vm_f a = VM_NAME(abs)(x);
    return VM_NAME(copysign)((a + 0x1p23f) - 0x1p23f, x);
}

/* floor and ceil: exact for every float (|x| >= 2^23 is already an integer; NaN and ±inf stay). */
VM_FN vm_f VM_NAME(floor)(vm_f x) {
    vm_f r = VM_NAME(round_small)(x);
    r = VM_NAME(copysign)(VM_SELECT(r > x, r - 1.0f, r), x); /* floor(-0.0) = -0.0 */
    return VM_SELECT(VM_NAME(abs)(x) < 0x1p23f, r, x);
}
VM_FN vm_f VM_NAME(ceil)(vm_f x) {
    vm_f r = VM_NAME(round_small)(x);
    r = VM_NAME(copysign)(VM_SELECT(r < x, r + 1.0f, r), x); /* ceil(-0.3) = -0.0 */
    return VM_SELECT(VM_NAME(abs)(x) < 0x1p23f, r, x);
}

/*
 * e^x. Range reduction x = n·ln2 + r, |r| <= ln2/2 (ln2 in two parts, the
 * first with trailing zeros so n·ln2_hi is exact), the degree-7 Taylor
 * polynomial of e^r (truncation below 0.05 ulp), and 2^n applied as two
 * exact powers of two 2^(n/2)·2^(n−n/2), so results near overflow and in the
 * subnormal range are rounded once. About 1 ulp.
 */
VM_FN vm_f VM_NAME(exp)(vm_f x) {
    vm_f c = VM_SELECT(x > 88.8f, VM_F(88.8f), x);
    c = VM_SELECT(c < -104.0f, VM_F(-104.0f), c);
    c = VM_SELECT(c != c, VM_F(0.0f), c); /* NaN: computed as 0, restored at the end */
    const vm_f n = VM_NAME(round)(c * 0x1.715476p+0f);
    vm_f r = c - n * 0x1.62E400p-1f;
    r = r - n * 0x1.7F7D1Cp-20f;
    vm_f q = 0x1.a01a02p-13f * r + 0x1.6c16c2p-10f;
    q = q * r + 0x1.111112p-7f;
    q = q * r + 0x1.555556p-5f;
    q = q * r + 0x1.555556p-3f;
    q = q * r + 0.5f;
    q = q * r + 1.0f;
    q = q * r + 1.0f;
    const vm_i ni = __builtin_convertvector(n, vm_i);
    const vm_i n1 = ni >> 1, n2 = ni - n1;
    const vm_f s1 = (vm_f)((vm_u)(n1 + 127) << 23), s2 = (vm_f)((vm_u)(n2 + 127) << 23);
    return VM_NAME(keep_nan)(x, (q * s1) * s2);
}

/*
 * log(x), fdlibm / musl logf vectorized: x = 2^k·m with m in [√½, √2),
 * f = m − 1, s = f / (2 + f), log(1 + f) = 2s + s·R(s²) with a degree-4
 * polynomial R. Subnormal inputs are scaled by 2^25 first. log(±0) = −inf,
 * log(x < 0) = NaN, log(+inf) = +inf. Under 1 ulp in musl; about 1 ulp here.
 */
/* The log of a positive normal float, without special cases; k_offset is added to its exponent. */
VM_FN vm_f VM_NAME(log_normal)(vm_f x, vm_i k_offset) {
    vm_i ix = (vm_i)((vm_u)x + (uint32_t)(0x3f800000 - 0x3f3504f3));
    const vm_i k = ((ix >> 23) - 0x7f) + k_offset;
    ix = (ix & 0x007fffff) + 0x3f3504f3;
    const vm_f f = (vm_f)ix - 1.0f;
    const vm_f s = f / (2.0f + f);
    const vm_f z = s * s, w = z * z;
    const vm_f t1 = w * (0x1.999c26p-2f + w * 0x1.f13c4cp-3f);
    const vm_f t2 = z * (0x1.555554p-1f + w * 0x1.23d3dcp-2f);
    const vm_f hfsq = 0.5f * f * f;
    const vm_f dk = __builtin_convertvector(k, vm_f);
    return s * (hfsq + (t2 + t1)) + dk * 9.0580006145e-06f - hfsq + f + dk * 6.9313812256e-01f;
}

VM_FN vm_f VM_NAME(log)(vm_f x) {
    const vm_i subnormal = (x < 0x1p-126f) & (x > 0.0f);
    const vm_f scaled = VM_SELECT(subnormal, x * 0x1p25f, x);
    vm_f y = VM_NAME(log_normal)(scaled, subnormal & VM_I(-25));
    y = VM_SELECT(x == 0.0f, VM_F(-__builtin_inff()), y);
    y = VM_SELECT(x < 0.0f, VM_F(__builtin_nanf("")), y);
    y = VM_SELECT(x == __builtin_inff(), x, y);
    return VM_NAME(keep_nan)(x, y);
}

/*
 * tanh(x): the odd Taylor series to x^19 for |x| < 0.55 (truncation below
 * 0.01 ulp; no cancellation near 0), else 1 − 2 / (e^(2|x|) + 1) with x's
 * sign (±1 once e^(2|x|) overflows).
 */
VM_FN vm_f VM_NAME(tanh)(vm_f x) {
    const vm_f a = VM_NAME(abs)(x);
    const vm_f x2 = x * x;
    vm_f p = VM_F(-443861162.0 / 1856156927625.0);
    p = p * x2 + (float)(6404582.0 / 10854718875.0);
    p = p * x2 + (float)(-929569.0 / 638512875.0);
    p = p * x2 + (float)(21844.0 / 6081075.0);
    p = p * x2 + (float)(-1382.0 / 155925.0);
    p = p * x2 + (float)(62.0 / 2835.0);
    p = p * x2 + (float)(-17.0 / 315.0);
    p = p * x2 + (float)(2.0 / 15.0);
    p = p * x2 + (float)(-1.0 / 3.0);
    const vm_f small = x + x * (x2 * p);
    const vm_f e = VM_NAME(exp)(a + a);
    const vm_f large = VM_NAME(copysign)(1.0f - 2.0f / (e + 1.0f), x);
    return VM_SELECT(a < 0.55f, small, large); /* NaN: a < 0.55 fails, exp(NaN) is NaN */
}

/*
 * erf(x) = x·P(x²)/Q(x²) on [−4, 4] (the rational approximation of Eigen and
 * XLA: degree 13 over degree 8), x clamped there (erf(±4) rounds to ±1) and
 * the result clamped to [−1, 1].
 */
VM_FN vm_f VM_NAME(erf)(vm_f x) {
    vm_f c = VM_SELECT(x > 4.0f, VM_F(4.0f), x);
    c = VM_SELECT(c < -4.0f, VM_F(-4.0f), c);
    const vm_f c2 = c * c;
    vm_f p = VM_F(-2.72614225801306e-10f);
    p = p * c2 + 2.77068142495902e-08f;
    p = p * c2 + -2.10102402082508e-06f;
    p = p * c2 + -5.69250639462346e-05f;
    p = p * c2 + -7.34990630326855e-04f;
    p = p * c2 + -2.95459980854025e-03f;
    p = p * c2 + -1.60960333262415e-02f;
    vm_f q = VM_F(-1.45660718464996e-05f);
    q = q * c2 + -2.13374055278905e-04f;
    q = q * c2 + -1.68282697438203e-03f;
    q = q * c2 + -7.37332916720468e-03f;
    q = q * c2 + -1.42647390514189e-02f;
    vm_f y = c * (p / q); /* one rounding of the product: tiny x stays accurate */
    y = VM_SELECT(y > 1.0f, VM_F(1.0f), y);
    y = VM_SELECT(y < -1.0f, VM_F(-1.0f), y);
    return VM_NAME(keep_nan)(x, y);
}

/* 1 / (1 + e^−x) as (x > 0 ? 1 : e) / (1 + e) with e = e^−|x|: no overflow, no cancellation. */
VM_FN vm_f VM_NAME(sigmoid)(vm_f x) {
    const vm_f e = VM_NAME(exp)(-VM_NAME(abs)(x));
    return VM_SELECT(x > 0.0f, VM_F(1.0f), e) / (1.0f + e);
}

/*
 * log(1 + e^x) = max(x, 0) + log1p(u) with u = e^−|x| in (0, 1]:
 * log1p(u) = 2·atanh(s), s = u / (2 + u) in (0, 1/3], as the odd series
 * 2s·(1 + s²/3 + ... + s¹⁴/15) (truncation below 2^-28 relative, since
 * s² <= 1/9). One exp and one division; no cancellation for tiny u.
 */
VM_FN vm_f VM_NAME(softplus)(vm_f x) {
    const vm_f u = VM_NAME(exp)(-VM_NAME(abs)(x));
    const vm_f s = u / (2.0f + u);
    const vm_f z = s * s;
    vm_f p = VM_F(1.0f / 15.0f);
    p = p * z + (1.0f / 13.0f);
    p = p * z + (1.0f / 11.0f);
    p = p * z + (1.0f / 9.0f);
    p = p * z + (1.0f / 7.0f);
    p = p * z + (1.0f / 5.0f);
    p = p * z + (1.0f / 3.0f);
    const vm_f s2 = s + s;
    const vm_f log1p = s2 + s2 * (z * p);
    const vm_f positive = VM_SELECT(x > 0.0f, x, VM_F(0.0f));
    return VM_NAME(keep_nan)(x, positive + log1p);
}

/* e^x − 1 as the reference writes it (exp, then one subtraction). */
VM_FN vm_f VM_NAME(exp_minus_one)(vm_f x) { return VM_NAME(exp)(x) - 1.0f; }

/* max(lo, min(hi, v)) with NaN kept. */
VM_FN vm_f VM_NAME(clamp)(vm_f v, float lo, float hi) {
    vm_f r = VM_SELECT(v > hi, VM_F(hi), v);
    return VM_SELECT(r < lo, VM_F(lo), r);
}

/* The limit 0 at −inf of x·g(x) with g(−inf) = 0 (SiLU, GELU, Mish), which the product alone makes NaN. */
VM_FN vm_f VM_NAME(zero_at_negative_infinity)(vm_f x, vm_f y) {
    return VM_SELECT(x == -__builtin_inff(), VM_F(0.0f), y);
}

/* One vector of fovea_unary_f32 (always inlined into a loop with a constant kind, so the switch folds away). */
static inline __attribute__((always_inline)) VM_TARGET vm_f VM_NAME(unary)(fovea_unary_kind kind, float alpha,
                                                                         float beta, vm_f x) {
    switch (kind) {
    case FOVEA_UNARY_EXP: return VM_NAME(exp)(x);
    case FOVEA_UNARY_LOG: return VM_NAME(log)(x + alpha);
    case FOVEA_UNARY_TANH: return VM_NAME(tanh)(x);
    case FOVEA_UNARY_ERF: return VM_NAME(erf)(x);
    case FOVEA_UNARY_SIGMOID: return VM_NAME(sigmoid)(x);
    case FOVEA_UNARY_SILU: return VM_NAME(zero_at_negative_infinity)(x, x * VM_NAME(sigmoid)(x));
    case FOVEA_UNARY_GELU_ERF:
        return VM_NAME(zero_at_negative_infinity)(x, 0.5f * x * (1.0f + VM_NAME(erf)(x * 0.70710678118654752f)));
    case FOVEA_UNARY_GELU_TANH: {
        /* (1 + tanh(z)) / 2 = sigmoid(2z): one exp and one division, and no cancellation for negative x;
           2z = x·(2√(2/π) + 2√(2/π)·0.044715·x²) in three operations. */
        const vm_f twice_inner = x * (1.5957691216057308f + 0.0713548162726009f * (x * x));
        return VM_NAME(zero_at_negative_infinity)(x, x * VM_NAME(sigmoid)(twice_inner));
    }
    case FOVEA_UNARY_ELU: return VM_SELECT(x >= 0.0f, x, alpha * VM_NAME(exp_minus_one)(x));
    case FOVEA_UNARY_SELU:
        return VM_SELECT(x > 0.0f, beta * x, beta * (alpha * VM_NAME(exp)(x) - alpha));
    case FOVEA_UNARY_CELU: {
        const vm_f negative = alpha * VM_NAME(exp_minus_one)(x / alpha);
        const vm_f y = VM_SELECT(x > 0.0f, x, VM_F(0.0f)) + VM_SELECT(negative < 0.0f, negative, VM_F(0.0f));
        return VM_NAME(keep_nan)(x, y);
    }
    case FOVEA_UNARY_SOFTPLUS: return VM_NAME(softplus)(x);
    case FOVEA_UNARY_SOFTSIGN: /* ±1 at ±inf, where the quotient is inf / inf */
        return VM_SELECT(VM_NAME(abs)(x) == __builtin_inff(), VM_NAME(copysign)(VM_F(1.0f), x), x / (1.0f + VM_NAME(abs)(x)));
    case FOVEA_UNARY_MISH: {
        /* tanh(log(1 + e^x)) = n / (n + 2) with n = e^x (e^x + 2): one exp and one division instead of
           exp, log and tanh. Above x = 20 the ratio rounds to 1 (and n would overflow further up). */
        const vm_f e = VM_NAME(exp)(VM_SELECT(x > 20.0f, VM_F(20.0f), x));
        const vm_f n = e * (e + 2.0f);
        const vm_f y = VM_SELECT(x > 20.0f, x, x * (n / (n + 2.0f)));
        return VM_NAME(keep_nan)(x, VM_NAME(zero_at_negative_infinity)(x, y));
    }
    case FOVEA_UNARY_HARD_SIGMOID: return VM_NAME(clamp)(alpha * x + beta, 0.0f, 1.0f);
    case FOVEA_UNARY_HARD_SWISH: return x * VM_NAME(clamp)(x / 6.0f + 0.5f, 0.0f, 1.0f);
    case FOVEA_UNARY_ABS: return VM_NAME(abs)(x);
    case FOVEA_UNARY_NEG: return -x;
    case FOVEA_UNARY_FLOOR: return VM_NAME(floor)(x);
    case FOVEA_UNARY_CEIL: return VM_NAME(ceil)(x);
    case FOVEA_UNARY_SQRT: return VM_SQRT(x);
    case FOVEA_UNARY_RECIPROCAL: return 1.0f / (x + alpha);
    case FOVEA_UNARY_RSQRT: return 1.0f / VM_SQRT(x + alpha);
    case FOVEA_UNARY_LINEAR: return alpha * x + beta;
    case FOVEA_UNARY_POWER:
        /* Only the exponents fovea_unary_f32 sends here (the others run lane by lane through powf). */
        if (alpha == 2.0f) return x * x;
        if (alpha == 3.0f) return x * x * x;
        if (alpha == 0.5f) return VM_SELECT(x == -__builtin_inff(), -x, VM_SQRT(x)); /* powf(-inf, 0.5) = +inf */
        if (alpha == -1.0f) return 1.0f / x;
        return x;
    case FOVEA_UNARY_THRESHOLDED_RELU: return VM_SELECT(x > alpha, x, VM_F(0.0f));
    case FOVEA_UNARY_THRESHOLD: return VM_NAME(keep_nan)(x, VM_SELECT(x > alpha, x, VM_F(alpha)));
    }
    return x;
}

/* y[i] = f(x[i]) over n floats: whole vectors, then one partial vector through a stack buffer. */
static inline __attribute__((always_inline)) VM_TARGET void VM_NAME(unary_loop)(fovea_unary_kind kind, float alpha,
                                                                              float beta, size_t n, const float *x,
                                                                              float *y) {
    size_t i = 0;
    for (; i + VM_LANES <= n; i += VM_LANES) {
        vm_f v;
        __builtin_memcpy(&v, x + i, sizeof v);
        v = VM_NAME(unary)(kind, alpha, beta, v);
        __builtin_memcpy(y + i, &v, sizeof v);
    }
    if (i < n) {
        float buffer[VM_LANES] = {0};
        __builtin_memcpy(buffer, x + i, (n - i) * sizeof(float));
        vm_f v;
        __builtin_memcpy(&v, buffer, sizeof v);
        v = VM_NAME(unary)(kind, alpha, beta, v);
        __builtin_memcpy(buffer, &v, sizeof v);
        __builtin_memcpy(y + i, buffer, (n - i) * sizeof(float));
    }
}

#define VM_UNARY_CASE(kind) \
    case kind: VM_NAME(unary_loop)(kind, fn->alpha, fn->beta, n, x, y); return;

/* The exported variant body: one specialized loop per kind. */
VM_FN void VM_NAME(unary_variant)(const fovea_unary *fn, size_t n, const float *x, float *y) {
    switch (fn->kind) {
    VM_UNARY_CASE(FOVEA_UNARY_EXP)
    VM_UNARY_CASE(FOVEA_UNARY_LOG)
    VM_UNARY_CASE(FOVEA_UNARY_TANH)
    VM_UNARY_CASE(FOVEA_UNARY_ERF)
    VM_UNARY_CASE(FOVEA_UNARY_SIGMOID)
    VM_UNARY_CASE(FOVEA_UNARY_SILU)
    VM_UNARY_CASE(FOVEA_UNARY_GELU_ERF)
    VM_UNARY_CASE(FOVEA_UNARY_GELU_TANH)
    VM_UNARY_CASE(FOVEA_UNARY_ELU)
    VM_UNARY_CASE(FOVEA_UNARY_SELU)
    VM_UNARY_CASE(FOVEA_UNARY_CELU)
    VM_UNARY_CASE(FOVEA_UNARY_SOFTPLUS)
    VM_UNARY_CASE(FOVEA_UNARY_SOFTSIGN)
    VM_UNARY_CASE(FOVEA_UNARY_MISH)
    VM_UNARY_CASE(FOVEA_UNARY_HARD_SIGMOID)
    VM_UNARY_CASE(FOVEA_UNARY_HARD_SWISH)
    VM_UNARY_CASE(FOVEA_UNARY_ABS)
    VM_UNARY_CASE(FOVEA_UNARY_NEG)
    VM_UNARY_CASE(FOVEA_UNARY_FLOOR)
    VM_UNARY_CASE(FOVEA_UNARY_CEIL)
    VM_UNARY_CASE(FOVEA_UNARY_SQRT)
    VM_UNARY_CASE(FOVEA_UNARY_RECIPROCAL)
    VM_UNARY_CASE(FOVEA_UNARY_RSQRT)
    VM_UNARY_CASE(FOVEA_UNARY_LINEAR)
    VM_UNARY_CASE(FOVEA_UNARY_POWER)
    VM_UNARY_CASE(FOVEA_UNARY_THRESHOLDED_RELU)
    VM_UNARY_CASE(FOVEA_UNARY_THRESHOLD)
    }
}

/* The sum of a vector's lanes. */
VM_FN float VM_NAME(lane_sum)(vm_f v) {
    float s = 0.0f;
    for (int i = 0; i < VM_LANES; i++) s += v[i];
    return s;
}

/*
 * LayerNormalization of `rows` rows of n floats: mean, then the variance of
 * the centered values (two passes, VM_LANES partial sums each, so no
 * cancellation), then y = (x − mean)·rstd·scale + bias. Lanes past n are
 * masked out of the sums through zero padding.
 */
VM_FN void VM_NAME(layer_norm_rows)(size_t rows, size_t n, const float *x, const float *scale, const float *bias,
                                   float epsilon, float *y) {
    for (size_t r = 0; r < rows; r++) {
        const float *xr = x + r * n;
        float *yr = y + r * n;
        vm_f sum = VM_F(0.0f);
        size_t i = 0;
        for (; i + VM_LANES <= n; i += VM_LANES) {
            vm_f v;
            __builtin_memcpy(&v, xr + i, sizeof v);
            sum += v;
        }
        float tail = 0.0f;
        for (size_t j = i; j < n; j++) tail += xr[j];
        const float mean = (VM_NAME(lane_sum)(sum) + tail) / (float)n;
        vm_f squares = VM_F(0.0f);
        for (i = 0; i + VM_LANES <= n; i += VM_LANES) {
            vm_f v;
            __builtin_memcpy(&v, xr + i, sizeof v);
            v -= mean;
            squares += v * v;
        }
        tail = 0.0f;
        for (size_t j = i; j < n; j++) tail += (xr[j] - mean) * (xr[j] - mean);
        const float variance = (VM_NAME(lane_sum)(squares) + tail) / (float)n;
        const float rstd = 1.0f / __builtin_sqrtf(variance + epsilon);
        for (i = 0; i + VM_LANES <= n; i += VM_LANES) {
            vm_f v, s, b = VM_F(0.0f);
            __builtin_memcpy(&v, xr + i, sizeof v);
            __builtin_memcpy(&s, scale + i, sizeof s);
            if (bias != NULL) __builtin_memcpy(&b, bias + i, sizeof b);
            v = (v - mean) * rstd * s + b;
            __builtin_memcpy(yr + i, &v, sizeof v);
        }
        for (size_t j = i; j < n; j++) yr[j] = (xr[j] - mean) * rstd * scale[j] + (bias != NULL ? bias[j] : 0.0f);
    }
}
