#ifndef STREAMKIT_CFUZZERDRIVER_H
#define STREAMKIT_CFUZZERDRIVER_H
#include <stddef.h>
#include <stdint.h>
/// libFuzzer's driver entry point. Weak, so a normal (non-fuzzer) build links without libFuzzer;
/// it is non-null only when the binary is built with -sanitize=fuzzer.
typedef int (*StreamKitFuzzCallback)(const uint8_t *data, size_t size);
int LLVMFuzzerRunDriver(int *argc, char ***argv, StreamKitFuzzCallback callback) __attribute__((weak));
#endif
