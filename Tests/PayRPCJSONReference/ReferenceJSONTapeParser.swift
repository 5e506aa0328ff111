/// The JSON tape parser as it was before issue 31's rework (f568cad), kept verbatim as the
/// reference that the differential tests and the `json_reader` fuzz target compare the shipped
/// parser with: the same tape, entry for entry, and the same errors, kind and offset, for every input.
///
/// Not shipped: it lives in a test-support module that only the tests and the fuzz targets import.
/// Only the names changed (`JSONTapeParser` → `ReferenceJSONTapeParser`, the entry type and buffer
/// below), and the helpers it called (`StringBytes.firstSpecial`, `UTF8Validation.skipScalar`,
/// `isDigit`, `hexValue`) are copied beside it as they were, so that a change to the library's
/// helpers cannot change the reference too. Do not optimize this file.
import PayRPCJSON

/// The single-pass parser behind ``JSONTape``, as it was: iterative, over the input bytes in place.
///
/// The loop keeps its state in locals (the position, the tape's write index, the innermost open
/// container, the depth) instead of a parser value read and written through memory by recursive
/// calls. No explicit stack is needed: while a container is open, its tape entry's `next` holds
/// the index of the container around it (plus one; 0 for none), set to its final value when it
/// closes, and its `count` counts the members as they end. The errors are the recursive reader's, at the same offsets: each check is made in the
/// order that reader made it.
public enum ReferenceJSONTapeParser {
    /// Parses one JSON text into `entries` (emptied first by the caller).
    public static func parse(_ bytes: UnsafeRawBufferPointer, into entries: inout ReferenceEntryBuffer) throws(JSONParseError) {
        let end = bytes.count
        guard end < Int(UInt32.max) else { throw JSONParseError(.tooLarge, at: 0) }
        guard let base = bytes.baseAddress else { throw JSONParseError(.empty, at: 0) }
        var position = skipWhitespace(base, from: 0, to: end)
        guard position < end else { throw JSONParseError(.empty, at: 0) }

        var tape = entries.base
        var count = entries.count
        var capacity = entries.capacity
        // The innermost open container (-1: none); its entry counts its members as they end.
        var parent = -1
        var depth = 0

        @inline(__always)
        func append(_ entry: ReferenceEntry) {
            if count == capacity {
                entries.count = count
                entries.grow()
                tape = entries.base
                capacity = entries.capacity
            }
            (tape + count).initialize(to: entry)
            count &+= 1
        }

        // A string, number, Boolean or null from `start` to `position` (`value`: a Boolean's truth).
        @inline(__always)
        func appendScalar(_ kind: JSONKind, from start: Int, escapes: Bool = false, value: UInt32 = 0) {
            append(
                .init(
                    kind: kind, hasEscapes: escapes, start: UInt32(truncatingIfNeeded: start),
                    end: UInt32(truncatingIfNeeded: position), next: UInt32(truncatingIfNeeded: count &+ 1),
                    count: value))
        }

        // Reads a member's name and its colon, leaving `position` at the value (whitespace skipped).
        @inline(__always)
        func readKey() throws(JSONParseError) {
            position = skipWhitespace(base, from: position, to: end)
            guard position < end else { throw JSONParseError(.unexpectedEnd, at: position) }
            guard base.load(fromByteOffset: position, as: UInt8.self) == UInt8(ascii: "\"") else {
                throw JSONParseError(.unexpectedCharacter, at: position)
            }
            let keyStart = position
            let escapes: Bool
            (position, escapes) = try scanString(bytes, from: position)
            appendScalar(.string, from: keyStart, escapes: escapes)
            position = skipWhitespace(base, from: position, to: end)
            guard position < end else { throw JSONParseError(.unexpectedEnd, at: position) }
            guard base.load(fromByteOffset: position, as: UInt8.self) == UInt8(ascii: ":") else {
                throw JSONParseError(.unexpectedCharacter, at: position)
            }
            position = skipWhitespace(base, from: position &+ 1, to: end)
        }

        // Closes the innermost container at `position` (just past its bracket) and makes the one
        // around it current again.
        @inline(__always)
        func close() {
            let closed = tape + parent
            let outer = Int(closed.pointee.next) &- 1
            closed.pointee.end = UInt32(truncatingIfNeeded: position)
            closed.pointee.next = UInt32(truncatingIfNeeded: count)
            depth &-= 1
            parent = outer
        }

        values: while true {
            // A value starts at `position` (whitespace skipped).
            guard position < end else { throw JSONParseError(.unexpectedEnd, at: position) }
            let start = position
            let byte = base.load(fromByteOffset: position, as: UInt8.self)
            switch byte {
            case UInt8(ascii: "\""):
                let escapes: Bool
                (position, escapes) = try scanString(bytes, from: position)
                appendScalar(.string, from: start, escapes: escapes)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth &+= 1
                guard depth <= JSONTape.maximumDepth else { throw JSONParseError(.tooDeep, at: position) }
                let object = byte == UInt8(ascii: "{")
                append(
                    .init(
                        kind: object ? .object : .array, hasEscapes: false, start: UInt32(truncatingIfNeeded: start),
                        end: 0, next: UInt32(truncatingIfNeeded: parent &+ 1), count: 0))
                parent = count &- 1
                position = skipWhitespace(base, from: position &+ 1, to: end)
                if position < end, base.load(fromByteOffset: position, as: UInt8.self) == byte &+ 2 {
                    // `}` and `]` are two after `{` and `[`: an empty container, closed below.
                    position &+= 1
                    close()
                } else {
                    if object { try readKey() }
                    continue values
                }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                position = try scanNumber(bytes, from: position)
                appendScalar(.number, from: start)
            case UInt8(ascii: "t"):
                position = try expectLiteral("true", bytes, at: position)
                appendScalar(.bool, from: start, value: 1)
            case UInt8(ascii: "f"):
                position = try expectLiteral("false", bytes, at: position)
                appendScalar(.bool, from: start)
            case UInt8(ascii: "n"):
                position = try expectLiteral("null", bytes, at: position)
                appendScalar(.null, from: start)
            default:
                throw JSONParseError(.unexpectedCharacter, at: position)
            }

            // A value ended: the next member or element, or the end of its container, or of the text.
            while parent >= 0 {
                let container = tape + parent
                container.pointee.count &+= 1
                let inObject = container.pointee.kind == .object
                position = skipWhitespace(base, from: position, to: end)
                guard position < end else { throw JSONParseError(.unexpectedEnd, at: position) }
                let next = base.load(fromByteOffset: position, as: UInt8.self)
                position &+= 1
                if next == UInt8(ascii: ",") {
                    if inObject { try readKey() } else { position = skipWhitespace(base, from: position, to: end) }
                    continue values
                }
                guard next == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                    throw JSONParseError(.unexpectedCharacter, at: position &- 1)
                }
                close()
            }
            break
        }

        entries.count = count
        position = skipWhitespace(base, from: position, to: end)
        if position < end { throw JSONParseError(.trailingData, at: position) }
    }

    /// The offset of the first byte at or after `position` that is not JSON whitespace.
    @inline(__always)
    static func skipWhitespace(_ base: UnsafeRawPointer, from position: Int, to end: Int) -> Int {
        var position = position
        while position < end {
            let byte = base.load(fromByteOffset: position, as: UInt8.self)
            // Every whitespace byte is at most a space: one comparison for the rest.
            guard byte <= 0x20, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { break }
            position &+= 1
        }
        return position
    }

    /// Scans a string starting at its opening quote: the offset after the closing one, and
    /// whether the string contains escapes.
    @inline(__always)
    static func scanString(_ bytes: UnsafeRawBufferPointer, from quote: Int) throws(JSONParseError) -> (Int, Bool) {
        // Plain text is skipped eight bytes at a time; most strings end at the first byte it stops at.
        let position = firstSpecial(in: bytes, from: quote &+ 1, stopAtNonASCII: true)
        if position < bytes.count, bytes.load(fromByteOffset: position, as: UInt8.self) == UInt8(ascii: "\"") {
            return (position &+ 1, false)
        }
        return try scanStringRest(bytes, at: position)
    }

    /// The rest of a string from the first byte that needs a closer look: escapes, control
    /// characters and scalars outside ASCII.
    @inline(never)
    static func scanStringRest(_ bytes: UnsafeRawBufferPointer, at start: Int) throws(JSONParseError) -> (Int, Bool) {
        var position = start
        var escapes = false
        while position < bytes.count {
            position = firstSpecial(in: bytes, from: position, stopAtNonASCII: true)
            guard position < bytes.count else { break }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                return (position + 1, escapes)
            } else if byte == UInt8(ascii: "\\") {
                escapes = true
                guard position + 1 < bytes.count else { throw JSONParseError(.unexpectedEnd, at: bytes.count) }
                switch bytes[position + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                    UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    position += 2
                case UInt8(ascii: "u"):
                    guard position + 5 < bytes.count else { throw JSONParseError(.unexpectedEnd, at: bytes.count) }
                    for offset in 2...5 where hexValue(bytes[position + offset]) == nil {
                        throw JSONParseError(.invalidEscape, at: position)
                    }
                    position += 6
                default:
                    throw JSONParseError(.invalidEscape, at: position)
                }
            } else if byte < 0x20 {
                throw JSONParseError(.controlCharacterInString, at: position)
            } else {
                position = try skipScalar(bytes, at: position)
            }
        }
        throw JSONParseError(.unexpectedEnd, at: position)
    }

    /// Checks the literal at `position` (its first byte is known to match) and returns the offset after it.
    @inline(__always)
    static func expectLiteral(_ literal: StaticString, _ bytes: UnsafeRawBufferPointer, at position: Int)
        throws(JSONParseError) -> Int
    {
        let length = literal.utf8CodeUnitCount
        guard position &+ length <= bytes.count else { throw JSONParseError(.unexpectedEnd, at: bytes.count) }
        let expected = literal.utf8Start
        var offset = 1
        while offset < length {
            if bytes.load(fromByteOffset: position &+ offset, as: UInt8.self) != expected[offset] {
                throw JSONParseError(.unexpectedCharacter, at: position &+ offset)
            }
            offset &+= 1
        }
        return position &+ length
    }

    /// Scans a number starting at `start` (a minus sign or a digit) and returns the offset after it.
    @inline(__always)
    static func scanNumber(_ bytes: UnsafeRawBufferPointer, from start: Int) throws(JSONParseError) -> Int {
        let end = bytes.count
        var position = start
        @inline(__always) func digit(at offset: Int) -> Bool {
            offset < end && isDigit(bytes.load(fromByteOffset: offset, as: UInt8.self))
        }
        if bytes.load(fromByteOffset: position, as: UInt8.self) == UInt8(ascii: "-") { position &+= 1 }
        guard position < end else { throw JSONParseError(.invalidNumber, at: start) }
        let first = bytes.load(fromByteOffset: position, as: UInt8.self)
        if first == UInt8(ascii: "0") {
            position &+= 1
        } else if isDigit(first) {
            while digit(at: position) { position &+= 1 }
        } else {
            throw JSONParseError(.invalidNumber, at: start)
        }
        if position < end, bytes.load(fromByteOffset: position, as: UInt8.self) == UInt8(ascii: ".") {
            position &+= 1
            guard digit(at: position) else { throw JSONParseError(.invalidNumber, at: start) }
            while digit(at: position) { position &+= 1 }
        }
        if position < end, bytes.load(fromByteOffset: position, as: UInt8.self) | 0x20 == UInt8(ascii: "e") {
            position &+= 1
            if position < end {
                let sign = bytes.load(fromByteOffset: position, as: UInt8.self)
                if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { position &+= 1 }
            }
            guard digit(at: position) else { throw JSONParseError(.invalidNumber, at: start) }
            while digit(at: position) { position &+= 1 }
        }
        return position
    }

    // The helpers the parser called, copied from StringBytes.swift, UTF8Validation.swift and
    // JSONTapeParser.swift as they were.

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

    /// Validates the multi-byte scalar that starts at `index` and returns the index after it.
    /// - Throws: ``JSONParseError`` with reason `.invalidUTF8` at `index`.
    @inline(__always)
    static func skipScalar(_ bytes: UnsafeRawBufferPointer, at index: Int) throws(JSONParseError) -> Int {
        let lead = bytes[index]
        let remaining = bytes.count - index
        func continuation(_ offset: Int) -> Bool { bytes[index + offset] & 0xC0 == 0x80 }
        switch lead {
        case 0xC2...0xDF:
            if remaining >= 2, continuation(1) { return index + 2 }
        case 0xE0...0xEF:
            if remaining >= 3, continuation(1), continuation(2) {
                let second = bytes[index + 1]
                if lead == 0xE0 && second < 0xA0 { break }  // overlong
                if lead == 0xED && second > 0x9F { break }  // surrogate
                return index + 3
            }
        case 0xF0...0xF4:
            if remaining >= 4, continuation(1), continuation(2), continuation(3) {
                let second = bytes[index + 1]
                if lead == 0xF0 && second < 0x90 { break }  // overlong
                if lead == 0xF4 && second > 0x8F { break }  // past U+10FFFF
                return index + 4
            }
        default:
            break
        }
        throw JSONParseError(.invalidUTF8, at: index)
    }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }
}
