// libFuzzer's own `main` (FuzzerMain.o) calls LLVMFuzzerTestOneInput. The fuzzer runtime that
// `-sanitize=fuzzer` links is linked whole, so that object comes along and needs the symbol,
// though each target's `main` is its Swift `@main` (SwiftPM's `--defsym main=...`), which starts
// libFuzzer through LLVMFuzzerRunDriver with the target's own callback. This definition only
// satisfies the link: if libFuzzer's `main` ever ran instead, every input stops the run here,
// loudly, rather than fuzzing nothing.
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    (void)data;
    (void)size;
    fputs("CFuzzer: libFuzzer's own main ran instead of the target's @main (see Fuzz/README.md)\n", stderr);
    abort();
}
