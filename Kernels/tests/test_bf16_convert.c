/*
 * fp32 <-> bf16 conversion (fovea_bf16.h) on every ISA the CPU has, against
 * reference_bf16_from_f32 (the rounding rule as its definition reads): the
 * special values one by one (zeros, denormals, FLT_MIN, FLT_MAX and the
 * overflow to infinity, infinities, quiet and signalling NaNs, ties that stay
 * and ties that round up), then random bit patterns of every class, at every
 * length 0-40 (vector bodies and tails); bf16 -> fp32 exact on every pattern.
 * Then each ISA's bf16 GEMM B packer (fp32 panel -> bf16 pairs) gives the
 * rule's bits on random and special patterns, odd kc, padded rows and a
 * strided source.
 */
#include "support/reference.h"
#include "support/test_support.h"
#include "../src/configs/config.h"


/* A pattern, what the rule must give, and why. */
typedef struct special {
    uint32_t bits;
    uint16_t want;
    const char *what;
} special;

static const special specials[] = {
    {0x00000000u, 0x0000u, "+0"},
    {0x80000000u, 0x8000u, "-0"},
    {0x00000001u, 0x0000u, "smallest denormal rounds to +0"},
    {0x80000001u, 0x8000u, "smallest negative denormal rounds to -0"},
    {0x00008000u, 0x0000u, "denormal tie to even (0)"},
    {0x00018000u, 0x0002u, "denormal tie to even (up)"},
    {0x00010001u, 0x0001u, "denormal just above 1 bf16 ulp"},
    {0x007FFFFFu, 0x0080u, "largest denormal rounds up to FLT_MIN"},
    {0x007F7FFFu, 0x007Fu, "largest bf16 denormal, below the tie"},
    {0x00800000u, 0x0080u, "FLT_MIN"},
    {0x3F800000u, 0x3F80u, "1"},
    {0x3F808000u, 0x3F80u, "1 + half a bf16 ulp: tie to even stays"},
    {0x3F818000u, 0x3F82u, "tie above an odd value rounds up"},
    {0x3F808001u, 0x3F81u, "just above the tie rounds up"},
    {0x3F807FFFu, 0x3F80u, "just below the tie stays"},
    {0xBF808000u, 0xBF80u, "-1 - half an ulp: tie stays"},
    {0xBF818000u, 0xBF82u, "negative tie above an odd value"},
    {0x7F7F0000u, 0x7F7Fu, "bf16's largest finite"},
    {0x7F7F7FFFu, 0x7F7Fu, "below the tie with infinity"},
    {0x7F7F8000u, 0x7F80u, "tie between bf16's largest (odd) and infinity rounds to infinity"},
    {0x7F7FFFFFu, 0x7F80u, "FLT_MAX overflows to +inf"},
    {0xFF7FFFFFu, 0xFF80u, "-FLT_MAX overflows to -inf"},
    {0x7F800000u, 0x7F80u, "+inf"},
    {0xFF800000u, 0xFF80u, "-inf"},
    {0x7FC00000u, 0x7FC0u, "quiet NaN"},
    {0xFFC00000u, 0xFFC0u, "negative quiet NaN"},
    {0x7F800001u, 0x7FC0u, "signalling NaN with a low payload: quiet, not infinity"},
    {0x7FBFFFFFu, 0x7FFFu, "signalling NaN with a full payload: quiet, not carried into the sign"},
    {0xFF800001u, 0xFFC0u, "negative signalling NaN"},
    {0x7FFFFFFFu, 0x7FFFu, "NaN with every payload bit"},
};
enum { special_count = sizeof specials / sizeof specials[0] };

/* A random pattern of a class that exercises one branch: normal, denormal, near a tie, NaN, near overflow. */
static uint32_t random_pattern(test_rng *rng) {
    const uint32_t r = (uint32_t)rng_next(rng), sign = (uint32_t)rng_int(rng, 0, 1) << 31;
    switch (rng_int(rng, 0, 5)) {
    case 0: return r;                                                          /* anything */
    case 1: return sign | (r & 0x007FFFFFu);                                   /* denormal or zero */
    case 2: return (r & 0xFFFF0000u) | 0x8000u;                                /* exact tie */
    case 3: return (r & 0xFFFF0000u) | (0x8000u + (uint32_t)rng_int(rng, -2, 2)); /* next to a tie */
    case 4: return sign | 0x7F800000u | ((r & 0x007FFFFFu) | 1u);              /* NaN */
    default: return sign | 0x7F7F0000u | (r & 0xFFFFu);                         /* near overflow */
    }
}

static void check_isa(const char *isa, test_rng *rng) {
    CHECK_STATUS(fovea_kernels_set_isa(isa), FOVEA_STATUS_OK);
    float x[special_count];
    uint16_t y[special_count + 1];
    for (int i = 0; i < special_count; i++) x[i] = float_from_bits(specials[i].bits);
    y[special_count] = 0xABCD;
    fovea_convert_f32_to_bf16(x, y, special_count);
    for (int i = 0; i < special_count; i++) {
        CHECK(y[i] == specials[i].want, "[%s] %s: 0x%08x -> 0x%04x, want 0x%04x", isa, specials[i].what,
              (unsigned)specials[i].bits, (unsigned)y[i], (unsigned)specials[i].want);
        CHECK(reference_bf16_from_f32(x[i]) == specials[i].want, "reference rule: %s", specials[i].what);
    }
    CHECK(y[special_count] == 0xABCD, "[%s] wrote past n", isa);

    /* Random patterns at every length, so that vector bodies and every tail run. */
    enum { most = 40 };
    for (int round = 0; round < 2000; round++) {
        const size_t n = (size_t)(round % (most + 1));
        float in[most];
        uint16_t out[most + 1];
        float back[most + 1];
        for (size_t i = 0; i < n; i++) in[i] = float_from_bits(random_pattern(rng));
        out[n] = 0xABCD;
        back[n] = 7.0f;
        fovea_convert_f32_to_bf16(in, out, n);
        for (size_t i = 0; i < n; i++) {
            const uint16_t want = reference_bf16_from_f32(in[i]);
            CHECK(out[i] == want, "[%s] 0x%08x -> 0x%04x, want 0x%04x (n %zu, lane %zu)", isa,
                  (unsigned)float_bits(in[i]), (unsigned)out[i], (unsigned)want, n, i);
        }
        CHECK(out[n] == 0xABCD, "[%s] f32 -> bf16 wrote past n %zu", isa, n);
        fovea_convert_bf16_to_f32(out, back, n);
        for (size_t i = 0; i < n; i++) {
            CHECK(float_bits(back[i]) == (uint32_t)out[i] << 16, "[%s] bf16 0x%04x -> 0x%08x", isa, (unsigned)out[i],
                  (unsigned)float_bits(back[i]));
        }
        CHECK(back[n] == 7.0f, "[%s] bf16 -> f32 wrote past n %zu", isa, n);
    }
    /* Every bf16 pattern widens exactly. */
    static uint16_t all[65536];
    static float wide[65536];
    for (size_t i = 0; i < 65536; i++) all[i] = (uint16_t)i;
    fovea_convert_bf16_to_f32(all, wide, 65536);
    long wrong = 0;
    for (size_t i = 0; i < 65536; i++) wrong += float_bits(wide[i]) != (uint32_t)i << 16;
    CHECK(wrong == 0, "[%s] %ld of 65536 bf16 patterns widen wrongly", isa, wrong);
    /* Every bf16 value converts back to itself (except NaNs, which come back quiet). */
    static uint16_t again[65536];
    fovea_convert_f32_to_bf16(wide, again, 65536);
    wrong = 0;
    for (size_t i = 0; i < 65536; i++) wrong += again[i] != reference_bf16_from_f32(wide[i]);
    CHECK(wrong == 0, "[%s] %ld of 65536 bf16 values do not round-trip", isa, wrong);
}

/* The B packer of `isa`'s bf16 GEMM config against the rule, value by value. */
static void check_pack_b(const char *isa, test_rng *rng) {
    const fovea_bf16_gemm_config *config = fovea_bf16_gemm_config_active(); /* check_isa forced `isa` */
    enum { most_k = 9, ldb_extra = 5 };
    const size_t nrs[] = {config->nr, 8, 16, 32, 3};
    for (size_t n_index = 0; n_index < sizeof nrs / sizeof nrs[0]; n_index++) {
        const size_t nr = nrs[n_index];
        for (size_t kc = 1; kc <= most_k; kc++) {
            const size_t kc_padded = (kc + 1) / 2 * 2, ldb = nr + (kc % 2 ? ldb_extra : 0);
            float b[most_k * (32 + ldb_extra)];
            uint16_t packed[(most_k + 1) * 32 + 1];
            for (size_t i = 0; i < kc * ldb; i++) {
                b[i] = float_from_bits(i % 7 == 0 ? specials[(size_t)rng_int(rng, 0, special_count - 1)].bits
                                                  : random_pattern(rng));
            }
            packed[kc_padded * nr] = 0xABCD;
            config->pack_b(nr, kc, kc_padded, b, ldb, packed);
            long wrong = 0;
            for (size_t p = 0; p < kc_padded; p++) {
                for (size_t j = 0; j < nr; j++) {
                    const uint16_t want = p < kc ? reference_bf16_from_f32(b[p * ldb + j]) : 0;
                    wrong += packed[(p / 2) * nr * 2 + j * 2 + p % 2] != want;
                }
            }
            CHECK(wrong == 0, "[%s] %s's B packer: %ld of %zu values wrong (nr %zu, kc %zu, ldb %zu)", isa,
                  config->name, wrong, kc_padded * nr, nr, kc, ldb);
            CHECK(packed[kc_padded * nr] == 0xABCD, "[%s] B packer wrote past the panel (nr %zu, kc %zu)", isa, nr,
                  kc);
        }
    }
}

int main(void) {
    test_rng rng = {20261207};
    for (int isa = 0; isa < test_isa_count; isa++) {
        if (!fovea_kernels_isa_supported(test_isas[isa])) {
            printf("skipping %s (not supported here)\n", test_isas[isa]);
            continue;
        }
        check_isa(test_isas[isa], &rng);
        check_pack_b(test_isas[isa], &rng);
    }
    fovea_kernels_set_isa("auto");
    return test_finish("bf16_convert");
}
