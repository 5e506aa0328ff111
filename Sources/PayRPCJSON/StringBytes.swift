/// Finding the bytes of a JSON string that need attention, eight at a time.
///
/// The usual SWAR ("SIMD within a register") byte tests on a 64-bit word: a lane is flagged when
/// it is a quote or a backslash (zero after an xor), below 0x20 (the subtraction borrows into its
/// high bit) or, when asked, 0x80 and above. A borrow only flags lanes above one that is flagged
/// already, so the lowest flagged lane is a real one. The parser uses it to skip plain text inside
/// strings, the writer to copy text that needs no escaping in one piece.
@usableFromInline
enum StringBytes {
    /// The offset of the first byte at or after `start` that is a quote, a backslash, a control
    /// character or (when `stopAtNonASCII`) not ASCII; `bytes.count` when there is none.
    @inline(__always)
    static func firstSpecial(in bytes: UnsafeRawBufferPointer, from start: Int, stopAtNonASCII: Bool) -> Int {
        guard let base = bytes.baseAddress else { return start }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var position = start
        while position &+ 8 <= bytes.count {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: position, as: UInt64.self))
            let quotes = word ^ (ones &* 0x22)
            let backslashes = word ^ (ones &* 0x5C)
            var flagged =
                ((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes)
                | ((word &- ones &* 0x20) & ~word)
            if stopAtNonASCII { flagged |= word }
            flagged &= highs
            if flagged != 0 { return position &+ flagged.trailingZeroBitCount >> 3 }
            position &+= 8
        }
        while position < bytes.count {
            let byte = bytes[position]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || (stopAtNonASCII && byte >= 0x80) {
                return position
            }
            position &+= 1
        }
        return position
    }

    /// The offset of the first byte at or after `start` (below `end`) that is a quote, a backslash,
    /// a control character or not ASCII; `end` when there is none: ``firstSpecial(in:from:stopAtNonASCII:)``
    /// for the parser's strings, with the flags of a word computed in fewer operations and the last
    /// bytes of the input (fewer than eight) read as one word too.
    ///
    /// A lane is flagged when `byte ^ 0x22` or `byte ^ 0x5C` minus one, or `byte` minus 0x20, or
    /// `byte` itself has its high bit set: exactly the special bytes, as long as no lane below it
    /// borrowed, and a lane borrows only if it is flagged itself (so the lowest flagged lane is the
    /// first special byte). The tail is the input's last eight bytes shifted down so that the bytes
    /// before `start` fall out; the zero lanes shifted in read as control characters, so the scan
    /// stops at `end` at the latest. Inputs shorter than eight bytes are read with ``partialWord(_:count:)``.
    @inline(__always)
    static func firstSpecialInString(_ base: UnsafeRawPointer, from start: Int, to end: Int) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        @inline(__always) func flags(_ word: UInt64) -> UInt64 {
            (((word ^ (ones &* 0x22)) &- ones) | ((word ^ (ones &* 0x5C)) &- ones) | (word &- ones &* 0x20) | word)
                & 0x8080_8080_8080_8080
        }
        var position = start
        while position &+ 8 <= end {
            let flagged = flags(UInt64(littleEndian: base.loadUnaligned(fromByteOffset: position, as: UInt64.self)))
            if flagged != 0 { return position &+ flagged.trailingZeroBitCount >> 3 }
            position &+= 8
        }
        let remaining = end &- position
        if remaining <= 0 { return position }
        let word: UInt64
        if end >= 8 {
            let last = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: end &- 8, as: UInt64.self))
            word = last >> (UInt64(truncatingIfNeeded: 8 &- remaining) &* 8)
        } else {
            word = partialWord(base + position, count: remaining)
        }
        return position &+ flags(word).trailingZeroBitCount >> 3
    }

    /// Whether every byte is ASCII (below 0x80): the words or'ed together, the last word read again
    /// where it overlaps the one before (no byte loop for the tail, but for texts under eight bytes).
    @inline(__always)
    static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var high: UInt64 = 0
        if count >= 8 {
            var position = 0
            while position &+ 8 <= count {
                high |= base.loadUnaligned(fromByteOffset: position, as: UInt64.self)
                position &+= 8
            }
            high |= base.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        } else {
            var position = 0
            while position < count {
                high |= UInt64(base.load(fromByteOffset: position, as: UInt8.self))
                position &+= 1
            }
        }
        return high & 0x8080_8080_8080_8080 == 0
    }

    /// Up to seven bytes as the low bytes of a little-endian word, the rest zero, never reading a
    /// byte outside them: two overlapping reads for four or more (the bytes they share are the
    /// same), three single bytes below that.
    @inlinable @inline(__always)
    static func partialWord(_ base: UnsafeRawPointer, count: Int) -> UInt64 {
        if count >= 4 {
            let low = UInt64(UInt32(littleEndian: base.loadUnaligned(as: UInt32.self)))
            let high = UInt64(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)))
            return low | high << (UInt64(truncatingIfNeeded: count &- 4) &* 8)
        }
        if count == 0 { return 0 }
        let first = UInt64(base.load(as: UInt8.self))
        let middle = UInt64(base.load(fromByteOffset: count >> 1, as: UInt8.self))
        let last = UInt64(base.load(fromByteOffset: count &- 1, as: UInt8.self))
        return first | middle << (UInt64(truncatingIfNeeded: count >> 1) &* 8)
            | last << (UInt64(truncatingIfNeeded: count &- 1) &* 8)
    }
}
