/// `String`s of at most 15 UTF-8 bytes made from their two words, without the standard library's
/// general path.
///
/// Swift keeps a string of up to 15 UTF-8 bytes inline (a "small string", no allocation): on
/// 64-bit platforms its two words are the bytes in memory order, then a top byte of `0xE0 | count`
/// when they are all ASCII and `0xA0 | count` when not (the stable layout of `_StringObject`). The
/// public ways to make one from bytes the parser has already checked (`String(copying:
/// UTF8Span)`, which the larger strings still take) spend their time on checks, a
/// byte-by-byte copy and an ASCII scan: most of the cost of decoding a phone number or a
/// name (scripts/callgrind.sh execute-payment). Here the words are loaded whole and the string is
/// their bit pattern. ``isAvailable`` checks once, on the strings the standard library itself
/// makes, that the layout is the one assumed; where it is not (another platform or runtime), the
/// callers take the public path.
enum SmallString {
    /// The most UTF-8 bytes a small string holds.
    static let capacity = 15

    /// Whether strings made here are the standard library's own: checked once on a few strings
    /// (ASCII, not ASCII, empty, the longest) that `String(decoding:as:)` makes.
    static let isAvailable: Bool = {
        #if _pointerBitWidth(_64) && _endian(little)
        let samples: [[UInt8]] = [[], Array("abc".utf8), Array("Jana Nov\u{E1}kov\u{E1}".utf8), Array("0123456789abcde".utf8)]
        for sample in samples {
            let expected = String(decoding: sample, as: UTF8.self)
            let made = sample.withUnsafeBytes { words($0) }
            let actual = unsafeBitCast(expected, to: (UInt64, UInt64).self)
            guard made == actual, unsafeBitCast(made, to: String.self) == expected else { return false }
        }
        return true
        #else
        return false
        #endif
    }()

    /// The string of `bytes` (valid UTF-8, at most ``capacity`` of them).
    /// - Precondition: ``isAvailable`` is true and `bytes.count <= capacity`.
    @inline(__always)
    static func make(_ bytes: UnsafeRawBufferPointer) -> String {
        unsafeBitCast(words(bytes), to: String.self)
    }

    /// The two words of the small string of `bytes`: read eight, four or one at a time (never a
    /// byte outside `bytes`), the count and the ASCII flag in the top byte.
    @inline(__always)
    static func words(_ bytes: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        let count = bytes.count
        guard let base = bytes.baseAddress, count > 0 else { return (0, 0xE0 << 56) }
        let leading: UInt64
        let trailing: UInt64
        if count >= 8 {
            leading = UInt64(littleEndian: base.loadUnaligned(as: UInt64.self))
            trailing = StringBytes.partialWord(base + 8, count: count &- 8)
        } else {
            leading = StringBytes.partialWord(base, count: count)
            trailing = 0
        }
        let ascii = (leading | trailing) & 0x8080_8080_8080_8080 == 0
        let top: UInt64 = (ascii ? 0xE0 : 0xA0) | UInt64(truncatingIfNeeded: count)
        return (leading, trailing | top << 56)
    }
}
