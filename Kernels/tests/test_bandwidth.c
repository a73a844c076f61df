/*
 * The memory bandwidth probe: a positive, plausible figure for one and two
 * threads, with the defaults for a zero size and a bad duration, and for a
 * size below the minimum. Sanity only: never a speed the machine must reach.
 */
#include "support/test_support.h"

#include "fovea_peak.h"

/* Far above any memory system a CPU core sees today, even from L1: catches a miscounted copy. */
#define IMPLAUSIBLE_GBPS 20000.0

int main(void) {
    const double one = fovea_memory_bandwidth_gbps(16 << 20, test_pool(1), 0.05);
    const double two = fovea_memory_bandwidth_gbps(16 << 20, test_pool(2), 0.05);
    printf("16 MB copy: %.1f GB/s on 1 thread, %.1f GB/s on 2\n", one, two);
    CHECK(one > 0.1 && one < IMPLAUSIBLE_GBPS, "1 thread: %.3f GB/s", one);
    CHECK(two > 0.1 && two < IMPLAUSIBLE_GBPS, "2 threads: %.3f GB/s", two);

    const double defaults = fovea_memory_bandwidth_gbps(0, 0, NAN);
    CHECK(defaults > 0.1 && defaults < IMPLAUSIBLE_GBPS, "64 MB default, NaN seconds: %.3f GB/s", defaults);
    const double tiny = fovea_memory_bandwidth_gbps(1, test_pool(1), -1);
    CHECK(tiny > 0.1 && tiny < IMPLAUSIBLE_GBPS, "1 byte is measured as 4 KB: %.3f GB/s", tiny);
    return test_finish("test_bandwidth");
}
