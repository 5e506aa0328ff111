import PayRPCCore
import PayRPCSandbox

/// A seeded random number generator for tests that draw random inputs: the same seed gives the
/// same inputs on every run, so a failing case can be replayed from its seed. The sandbox's own
/// SplitMix64 stream.
public typealias SeededGenerator = SeededStream
