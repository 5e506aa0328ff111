# The one sanitized debug build that scripts/test and Fuzz/run share (sourced by both; not a
# command). Every Swift module is compiled with AddressSanitizer and libFuzzer's coverage:
# `-sanitize=fuzzer,address` handed to the compile step only (-Xfrontend: inline 8-bit counters,
# a PC table and comparison tracing, whose hooks are no-ops outside a fuzz executable), while
# SwiftPM links with `-sanitize=address` alone; libFuzzer itself is linked into the fuzz
# executables only (their linker settings in Package.swift). PAYRPC_FUZZ=1 declares those
# executables, so `swift build --build-tests` with these flags builds the tests and the fuzz
# targets in one go, in .build-asan.
#
#   source scripts/asan-flags.bash
#   PAYRPC_FUZZ=1 swift build --build-tests "${asan_flags[@]}"
#   PAYRPC_FUZZ=1 swift test --skip-build "${asan_flags[@]}"
asan_flags=(--sanitize=address --scratch-path .build-asan -Xswiftc -Xfrontend -Xswiftc -sanitize=fuzzer,address)
