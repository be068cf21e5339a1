#include "CFuzzerDriver.h"

// libFuzzer's driver entry point, weak so that a normal (non-fuzzer) build still links.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *, size_t)) __attribute__((weak));

int streamkit_fuzzer_is_linked(void) { return LLVMFuzzerRunDriver != 0; }

int streamkit_fuzzer_run(int *argc, char ***argv, StreamKitFuzzCallback callback) {
    return LLVMFuzzerRunDriver(argc, argv, callback);
}
