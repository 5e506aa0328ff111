/// A member's name as the generated checking decoders match it: its length, then its bytes eight
/// at a time against constants the generator computed from the model's keys.
///
/// A decoder matched each name by comparing it with every key in turn (``JSONElement/stringEquals(_:)-(StaticString)``:
/// the tape entry read again, the kind, the escapes and the length tested, then a byte loop for
/// every key of the same length); here the entry is read once, and a `switch` on ``count`` picks
/// the keys of that length, whose words are compared whole.
public struct MemberName {
    /// The name's length in UTF-8 bytes; -1 for a name written with escapes that is none of the
    /// model's keys (``JSONElement/memberName(among:)``).
    public let count: Int
    @usableFromInline let bytes: UnsafeRawPointer?

    @inlinable
    init(count: Int, bytes: UnsafeRawPointer?) {
        self.count = count
        self.bytes = bytes
    }

    /// Bytes `offset ..< min(offset + 8, count)` of the name as a little-endian word, zero above:
    /// what the generator's constant for the same bytes of a key is.
    /// - Precondition: `0 <= offset < count`.
    @inlinable @inline(__always)
    public func word(_ offset: Int) -> UInt64 {
        let base = bytes.unsafelyUnwrapped + offset
        let left = count &- offset
        if left >= 8 { return UInt64(littleEndian: base.loadUnaligned(as: UInt64.self)) }
        return StringBytes.partialWord(base, count: left)
    }

    /// The constant ``word(_:)`` answers for bytes `offset ..< min(offset + 8, key.count)` of
    /// `key`: what the generator writes into a decoder.
    public static func word(of key: some Collection<UInt8>, at offset: Int) -> UInt64 {
        var word: UInt64 = 0
        for (shift, byte) in key.dropFirst(offset).prefix(8).enumerated() { word |= UInt64(byte) << (8 * UInt64(shift)) }
        return word
    }
}

extension JSONElement {
    /// The member name this element is, for the generated decoders' `switch` (``MemberName``).
    ///
    /// A name written with escapes is decoded and looked up among `keys` (the model's keys, whose
    /// static bytes the answer then points to), so that it matches as its text does; -1 when it is
    /// none of them.
    @inlinable @inline(__always)
    public func memberName(among keys: @autoclosure () -> [StaticString]) -> MemberName {
        let entry = self.entry
        guard entry.kind == .string, !entry.hasEscapes else { return escapedMemberName(among: keys()) }
        return MemberName(
            count: Int(entry.end &- entry.start) &- 2, bytes: reference.tape.base.baseAddress! + Int(entry.start) + 1)
    }

    /// ``memberName(among:)`` for a name written with escapes (or not a string).
    @usableFromInline
    func escapedMemberName(among keys: [StaticString]) -> MemberName {
        guard let text = string else { return MemberName(count: -1, bytes: nil) }
        for key in keys where key.description == text {
            return MemberName(count: key.utf8CodeUnitCount, bytes: UnsafeRawPointer(key.utf8Start))
        }
        return MemberName(count: -1, bytes: nil)
    }
}
