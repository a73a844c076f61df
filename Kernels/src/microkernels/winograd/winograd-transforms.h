/*
 * The 1-D Winograd transforms, written once for every ISA. An ISA file defines
 * the vector type and operations, then includes this file:
 *
 *   WG_VEC            the vector (or float) type
 *   WG_ATTR           attributes of the generated functions (target, inline)
 *   WG_FN(name)       the name of a generated function (per-ISA prefix)
 *   WG_ADD(a, b)      a + b
 *   WG_SUB(a, b)      a − b
 *   WG_MUL(a, k)      a · k
 *   WG_FMA(a, k, c)   a · k + c (fused or not)
 *   WG_CONST(f)       a vector of the constant f
 *
 * A 2-D transform is the 1-D one along the rows, then along the columns.
 * input_f<m> computes o = Bᵀ d (α = m+2 values), output_f<m> computes o = Aᵀ d
 * (m values), with d[i·ds] and o[i·os]. Points: F2 0, ±1; F4 0, ±1, ±2;
 * F6 0, ±1, ±2, ±1/2; plus ∞ (Lavin & Gray's matrices, checked exactly by
 * Kernels/tests/test_winograd.c through the whole convolution).
 */

/* Bᵀ of F(2, 3): rows [1 0 −1 0], [0 1 1 0], [0 −1 1 0], [0 1 0 −1]. */
static inline WG_ATTR void WG_FN(input_f2)(const WG_VEC *d, size_t ds, WG_VEC *o, size_t os) {
    const WG_VEC d0 = d[0], d1 = d[ds], d2 = d[2 * ds], d3 = d[3 * ds];
    o[0] = WG_SUB(d0, d2);
    o[os] = WG_ADD(d1, d2);
    o[2 * os] = WG_SUB(d2, d1);
    o[3 * os] = WG_SUB(d1, d3);
}

/* Aᵀ of F(2, 3): rows [1 1 1 0], [0 1 −1 −1]. */
static inline WG_ATTR void WG_FN(output_f2)(const WG_VEC *d, size_t ds, WG_VEC *o, size_t os) {
    const WG_VEC d0 = d[0], d1 = d[ds], d2 = d[2 * ds], d3 = d[3 * ds];
    o[0] = WG_ADD(WG_ADD(d0, d1), d2);
    o[os] = WG_SUB(WG_SUB(d1, d2), d3);
}

/*
 * Bᵀ of F(4, 3):
 *   [4  0 −5  0  1  0]
 *   [0 −4 −4  1  1  0]
 *   [0  4 −4 −1  1  0]
 *   [0 −2 −1  2  1  0]
 *   [0  2 −1 −2  1  0]
 *   [0  4  0 −5  0  1]
 */
static inline WG_ATTR void WG_FN(input_f4)(const WG_VEC *d, size_t ds, WG_VEC *o, size_t os) {
    const WG_VEC d0 = d[0], d1 = d[ds], d2 = d[2 * ds], d3 = d[3 * ds], d4 = d[4 * ds], d5 = d[5 * ds];
    const WG_VEC four = WG_CONST(4.0f), minus_four = WG_CONST(-4.0f), minus_five = WG_CONST(-5.0f);
    const WG_VEC even12 = WG_FMA(d2, minus_four, d4); /* d4 − 4 d2 */
    const WG_VEC odd12 = WG_FMA(d1, minus_four, d3);  /* d3 − 4 d1 */
    const WG_VEC even34 = WG_SUB(d4, d2);
    const WG_VEC odd34 = WG_MUL(WG_SUB(d3, d1), WG_CONST(2.0f));
    o[0] = WG_FMA(d0, four, WG_FMA(d2, minus_five, d4));
    o[os] = WG_ADD(even12, odd12);
    o[2 * os] = WG_SUB(even12, odd12);
    o[3 * os] = WG_ADD(even34, odd34);
    o[4 * os] = WG_SUB(even34, odd34);
    o[5 * os] = WG_FMA(d1, four, WG_FMA(d3, minus_five, d5));
}

/*
 * Aᵀ of F(4, 3):
 *   [1 1  1 1  1 0]
 *   [0 1 −1 2 −2 0]
 *   [0 1  1 4  4 0]
 *   [0 1 −1 8 −8 1]
 */
static inline WG_ATTR void WG_FN(output_f4)(const WG_VEC *d, size_t ds, WG_VEC *o, size_t os) {
    const WG_VEC d0 = d[0], d1 = d[ds], d2 = d[2 * ds], d3 = d[3 * ds], d4 = d[4 * ds], d5 = d[5 * ds];
    const WG_VEC sum12 = WG_ADD(d1, d2), diff12 = WG_SUB(d1, d2);
    const WG_VEC sum34 = WG_ADD(d3, d4), diff34 = WG_SUB(d3, d4);
    o[0] = WG_ADD(WG_ADD(d0, sum12), sum34);
    o[os] = WG_FMA(diff34, WG_CONST(2.0f), diff12);
    o[2 * os] = WG_FMA(sum34, WG_CONST(4.0f), sum12);
    o[3 * os] = WG_ADD(WG_FMA(diff34, WG_CONST(8.0f), diff12), d5);
}

/*
 * Bᵀ of F(6, 3):
 *   [1    0 −21/4     0  21/4     0  −1  0]
 *   [0    1     1 −17/4 −17/4     1   1  0]
 *   [0   −1     1  17/4 −17/4    −1   1  0]
 *   [0  1/2   1/4  −5/2  −5/4     2   1  0]
 *   [0 −1/2   1/4   5/2  −5/4    −2   1  0]
 *   [0    2     4  −5/2    −5   1/2   1  0]
 *   [0   −2     4   5/2    −5  −1/2   1  0]
 *   [0   −1     0  21/4     0 −21/4   0  1]
 */
static inline WG_ATTR void WG_FN(input_f6)(const WG_VEC *d, size_t ds, WG_VEC *o, size_t os) {
    const WG_VEC d0 = d[0], d1 = d[ds], d2 = d[2 * ds], d3 = d[3 * ds];
    const WG_VEC d4 = d[4 * ds], d5 = d[5 * ds], d6 = d[6 * ds], d7 = d[7 * ds];
    const WG_VEC k5_25 = WG_CONST(5.25f), km4_25 = WG_CONST(-4.25f), km2_5 = WG_CONST(-2.5f);
    const WG_VEC km1_25 = WG_CONST(-1.25f), k2 = WG_CONST(2.0f), k0_5 = WG_CONST(0.5f);
    o[0] = WG_FMA(WG_SUB(d4, d2), k5_25, WG_SUB(d0, d6));
    o[7 * os] = WG_FMA(WG_SUB(d3, d5), k5_25, WG_SUB(d7, d1));
    const WG_VEC even12 = WG_FMA(d4, km4_25, WG_ADD(d2, d6)); /* d2 + d6 − 4.25 d4 */
    const WG_VEC odd12 = WG_FMA(d3, km4_25, WG_ADD(d1, d5));  /* d1 + d5 − 4.25 d3 */
    o[os] = WG_ADD(even12, odd12);
    o[2 * os] = WG_SUB(even12, odd12);
    /* 0.25 d2 − 1.25 d4 + d6 and 0.5 d1 − 2.5 d3 + 2 d5 */
    const WG_VEC even34 = WG_FMA(d2, WG_CONST(0.25f), WG_FMA(d4, km1_25, d6));
    const WG_VEC odd34 = WG_FMA(d1, k0_5, WG_FMA(d3, km2_5, WG_MUL(d5, k2)));
    o[3 * os] = WG_ADD(even34, odd34);
    o[4 * os] = WG_SUB(even34, odd34);
    /* 4 (d2 − 1.25 d4) + d6 and 2 d1 − 2.5 d3 + 0.5 d5 */
    const WG_VEC even56 = WG_FMA(WG_FMA(d4, km1_25, d2), WG_CONST(4.0f), d6);
    const WG_VEC odd56 = WG_FMA(d1, k2, WG_FMA(d3, km2_5, WG_MUL(d5, k0_5)));
    o[5 * os] = WG_ADD(even56, odd56);
    o[6 * os] = WG_SUB(even56, odd56);
}

/*
 * Aᵀ of F(6, 3):
 *   [1 1  1  1   1    1     1  0]
 *   [0 1 −1  2  −2  1/2  −1/2  0]
 *   [0 1  1  4   4  1/4   1/4  0]
 *   [0 1 −1  8  −8  1/8  −1/8  0]
 *   [0 1  1 16  16 1/16  1/16  0]
 *   [0 1 −1 32 −32 1/32 −1/32  1]
 */
static inline WG_ATTR void WG_FN(output_f6)(const WG_VEC *d, size_t ds, WG_VEC *o, size_t os) {
    const WG_VEC d0 = d[0], d1 = d[ds], d2 = d[2 * ds], d3 = d[3 * ds];
    const WG_VEC d4 = d[4 * ds], d5 = d[5 * ds], d6 = d[6 * ds], d7 = d[7 * ds];
    const WG_VEC sum12 = WG_ADD(d1, d2), diff12 = WG_SUB(d1, d2);
    const WG_VEC sum34 = WG_ADD(d3, d4), diff34 = WG_SUB(d3, d4);
    const WG_VEC sum56 = WG_ADD(d5, d6), diff56 = WG_SUB(d5, d6);
    o[0] = WG_ADD(WG_ADD(d0, sum12), WG_ADD(sum34, sum56));
    o[os] = WG_FMA(diff56, WG_CONST(0.5f), WG_FMA(diff34, WG_CONST(2.0f), diff12));
    o[2 * os] = WG_FMA(sum56, WG_CONST(0.25f), WG_FMA(sum34, WG_CONST(4.0f), sum12));
    o[3 * os] = WG_FMA(diff56, WG_CONST(0.125f), WG_FMA(diff34, WG_CONST(8.0f), diff12));
    o[4 * os] = WG_FMA(sum56, WG_CONST(0.0625f), WG_FMA(sum34, WG_CONST(16.0f), sum12));
    o[5 * os] = WG_ADD(WG_FMA(diff56, WG_CONST(0.03125f), WG_FMA(diff34, WG_CONST(32.0f), diff12)), d7);
}
