/* libFuzzer's driver, for fovea-fuzz's own entry point (SwiftPM renames an
 * executable's entry point, which hides libFuzzer's main). The symbol comes from
 * the libFuzzer runtime that -sanitize=fuzzer links; ordinary builds never call it. */
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
