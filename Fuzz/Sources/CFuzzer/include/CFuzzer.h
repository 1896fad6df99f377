#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (in the runtime that -sanitize=fuzzer links). Each
/// harness's Swift main calls it: SwiftPM gives executables a `main` of their
/// own, so libFuzzer's `main` cannot be the entry point.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
