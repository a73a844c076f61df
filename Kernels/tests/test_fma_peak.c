/*
 * The FMA peak probe: a positive, plausible figure for every ISA the CPU
 * supports, 0 for the others and for bad names, wider ISAs at least as fast
 * as scalar code, and independent of the ISA forced for the kernels.
 * Sanity only: never a speed the machine must reach.
 */
#include "support/test_support.h"

/* Far above any core today (a Zen 5 core peaks near 250 GFLOP/s): catches a miscounted loop. */
#define IMPLAUSIBLE_GFLOPS 5000.0

int main(void) {
    double measured[test_isa_count] = {0};
    for (int isa = 0; isa < test_isa_count; isa++) {
        const char *name = test_isas[isa];
        measured[isa] = fovea_fma_peak_gflops(name, 0.05);
        printf("%-6s %s %.1f GFLOP/s\n", name, fovea_kernels_isa_supported(name) ? "supported  " : "unsupported",
               measured[isa]);
        if (fovea_kernels_isa_supported(name)) {
            CHECK(measured[isa] > 0.0, "%s is supported: peak %.3f must be positive", name, measured[isa]);
            CHECK(measured[isa] < IMPLAUSIBLE_GFLOPS, "%s: %.1f GFLOP/s on one thread is implausible", name, measured[isa]);
        } else {
            CHECK(measured[isa] == 0.0, "%s is unsupported: peak %.3f must be 0", name, measured[isa]);
        }
    }
    if (measured[1] > 0.0) {
        /* 8 lanes with FMA against one lane: about 8 to 16 times faster, so noise cannot flip this. */
        CHECK(measured[1] >= measured[0], "avx2 %.1f GFLOP/s below scalar %.1f", measured[1], measured[0]);
    }

    CHECK(fovea_fma_peak_gflops(NULL, 0.01) == 0.0, "NULL is no ISA");
    CHECK(fovea_fma_peak_gflops("auto", 0.01) == 0.0, "auto is no ISA to measure");
    CHECK(fovea_fma_peak_gflops("sse9", 0.01) == 0.0, "unknown names give 0");
    CHECK(fovea_fma_peak_gflops("AVX2", 0.01) == 0.0, "names are lower case");

    /* A non-positive or NaN duration uses the default, and still measures. */
    CHECK(fovea_fma_peak_gflops("scalar", 0.0) > 0.0, "seconds 0 uses the default duration");
    CHECK(fovea_fma_peak_gflops("scalar", -1.0) > 0.0, "negative seconds use the default duration");
    CHECK(fovea_fma_peak_gflops("scalar", NAN) > 0.0, "NaN seconds use the default duration");

    /* The probe measures the ISA it is given, whatever the kernels are forced to use. */
    for (int isa = test_isa_count - 1; isa > 0; isa--) {
        if (!fovea_kernels_isa_supported(test_isas[isa])) continue;
        if (test_emulated()) {
            printf("skip: %s against scalar with scalar forced: under emulation both run at the emulator's speed\n",
                   test_isas[isa]);
            break;
        }
        CHECK_STATUS(fovea_kernels_set_isa("scalar"), FOVEA_STATUS_OK);
        const double forced = fovea_fma_peak_gflops(test_isas[isa], 0.02);
        CHECK(forced > measured[0], "%s measured %.1f with scalar forced, not above scalar's %.1f", test_isas[isa],
              forced, measured[0]);
        CHECK_STATUS(fovea_kernels_set_isa("auto"), FOVEA_STATUS_OK);
        break;
    }
    /* The bf16 dot product: where the CPU has it, positive, plausible, and not below the fp32 FMA peak
       (twice the products per instruction; a CPU issuing it at half the FMA rate still passes: a sanity bound). */
    const double bf16 = fovea_bf16_dot_peak_gflops(0.05);
    printf("bf16 dot (vdpbf16ps) %.1f GFLOP/s\n", bf16);
    if (fovea_kernels_isa_supported("avx512bf16")) {
        CHECK(bf16 > 0.0 && bf16 < 2 * IMPLAUSIBLE_GFLOPS, "bf16 dot peak %.1f", bf16);
        CHECK(bf16 >= 0.4 * fovea_fma_peak_gflops("avx512", 0.05), "bf16 dot peak %.1f far below the FMA peak", bf16);
    } else {
        CHECK(bf16 == 0.0, "no avx512bf16, yet a bf16 dot peak of %.1f", bf16);
    }
    return test_finish("test_fma_peak");
}
