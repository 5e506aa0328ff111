// libFuzzer's driver entry point, from the fuzzer runtime that `-sanitize=fuzzer` links.
// The runtime ships no header; this is its documented declaration
// (https://llvm.org/docs/LibFuzzer.html#using-libfuzzer-as-a-library).
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));
