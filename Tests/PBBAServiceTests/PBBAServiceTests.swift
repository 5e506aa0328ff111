import Testing

/// The PBBA service's tests, each on its own store in a temporary directory and its own engine.
@Suite
struct PBBAServiceTests {}
