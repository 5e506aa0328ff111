import PayRPCCore
import PayRPCSync
/// The values services draw: strings, bytes and UUIDs from a profile's stream (seeded, or the
/// system's cryptographic generator).
extension SandboxControls {
    /// A generator over the profile's stream, for `Int.random(in:using:)` and friends.
    public func generator(profile: String, stream: String) -> SandboxGenerator {
        SandboxGenerator(self, profile: profile, stream: stream)
    }

    /// `length` characters drawn uniformly from `alphabet` (an id, a code, a token).
    /// - Precondition: `alphabet` is not empty.
    public func string(profile: String, stream: String, length: Int, alphabet: String) -> String {
        let seeded = seed(profile: profile) != nil
        /// Calls `each` with `length` indexes below `count`: unseeded, one random byte each (rather
        /// than 64 bits); seeded, the same draws for any alphabet, so a seed gives the same values.
        func draw(below count: Int, _ each: (Int) -> Void) {
            if !seeded && count <= 256 {
                systemRandom.withLock { system in for _ in 0..<length { each(system.index(below: count)) } }
            } else {
                var generator = self.generator(profile: profile, stream: stream)
                for _ in 0..<length { each(Int.random(in: 0..<count, using: &generator)) }
            }
        }
        let ascii = Array(alphabet.utf8)
        precondition(!ascii.isEmpty, "an empty alphabet")
        if ascii.allSatisfy({ $0 < 0x80 }) {
            // An ASCII alphabet (every one payrpc uses): bytes in, one String out.
            return String(unsafeUninitializedCapacity: length) { buffer in
                var position = 0
                draw(below: ascii.count) {
                    buffer[position] = ascii[$0]
                    position += 1
                }
                return position
            }
        }
        let characters = Array(alphabet)
        var result = ""
        result.reserveCapacity(length)
        draw(below: characters.count) { result.append(characters[$0]) }
        return result
    }

    /// `count` random bytes (a token's entropy).
    public func bytes(profile: String, stream: String, count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 8)
        var generator = self.generator(profile: profile, stream: stream)
        while bytes.count < count {
            withUnsafeBytes(of: generator.next().littleEndian) { bytes.append(contentsOf: $0) }
        }
        return Array(bytes.prefix(count))
    }

    /// A version-4 UUID from the profile's stream, upper-case as Foundation writes it.
    public func uuid(profile: String, stream: String) -> String {
        var bytes = self.bytes(profile: profile, stream: stream, count: 16)
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { byte -> String in
            let text = String(byte, radix: 16, uppercase: true)
            return text.count == 1 ? "0" + text : text
        }.joined()
        let parts = [
            hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4),
            hex.dropFirst(20),
        ]
        return parts.joined(separator: "-")
    }
}
