#ifndef STREAMKIT_CFUZZERDRIVER_H
#define STREAMKIT_CFUZZERDRIVER_H
#include <stddef.h>
#include <stdint.h>

/// The per-input callback libFuzzer calls.
typedef int (*StreamKitFuzzCallback)(const uint8_t *data, size_t size);

/// Whether this binary was linked with libFuzzer (built with -sanitize=fuzzer).
int streamkit_fuzzer_is_linked(void);

/// Runs libFuzzer's driver over `callback`; only valid when streamkit_fuzzer_is_linked() is non-zero.
int streamkit_fuzzer_run(int *argc, char ***argv, StreamKitFuzzCallback callback);
#endif
