/// SplitMix64 (Steele, Lea and Flood 2014): small, fast, and statistically sound for test data.
/// Not for secrets: seeded values are meant to be reproducible; unseeded sandbox values come from
/// the system generator instead. The tests draw their random inputs from it too.
public struct SeededStream: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// The stream whose sequence is fixed by `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The stream named `name` under `seed`: FNV-1a of the name mixed with the seed, so each name
    /// starts somewhere else.
    public init(seed: UInt64, name: String) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        state = seed ^ hash
    }

    /// The stream named `name` under `seed` after `position` values were drawn from it: SplitMix64's
    /// state moves by one fixed step per value, so any position is reached at once (a profile's
    /// streams continue after a restart from the positions kept in the store).
    public init(seed: UInt64, name: String, position: UInt64) {
        self.init(seed: seed, name: name)
        state = state &+ position &* Self.step
    }

    /// How far the state moves per value.
    static let step: UInt64 = 0x9E37_79B9_7F4A_7C15

    public mutating func next() -> UInt64 {
        state = state &+ Self.step
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
