import Testing

/// Every PBBA test, one at a time: the harness answers on the test's thread by blocking, so the
/// suites do not run side by side on the two-core machines' small cooperative pool.
@Suite(.serialized)
struct PBBAServiceTests {}
