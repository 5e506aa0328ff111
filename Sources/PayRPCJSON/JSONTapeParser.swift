/// The single-pass parser behind ``JSONTape``: iterative, over the input bytes in place.
///
/// The loop keeps its state in locals (the position, the tape's write index, the innermost open
/// container, whether it is an object, how many values it holds so far, the depth) instead of a
/// parser value read and written through memory by recursive calls. No explicit stack is needed:
/// while a container is open, its tape entry's `next` holds the index of the container around it
/// (plus one; 0 for none), set to its final value when it closes, and its `count` keeps the running
/// count of the container around a nested one while that one is open. The errors are the recursive
/// reader's, at the same offsets: each check is made in the order that reader made it
/// (`ReferenceJSONTapeParser` in Tests/PayRPCJSONReference is the parser before issue 31's rework;
/// the differential tests and the `json_reader` fuzz target hold this one to it).
///
/// What makes it cheap (callgrind, issue 31): whitespace is looked for only where a byte that is not
/// the expected one turns up (compact JSON has none); the entry buffer is reserved once for the
/// most entries the rest of the input can hold, so appending checks nothing (see `parse`); strings
/// are scanned eight bytes at a time to their end, the last bytes of the input too, with two-byte
/// UTF-8 scalars checked in line; literals are compared as one word.
enum JSONTapeParser {
    /// Parses one JSON text into `entries` (emptied first by the caller).
    static func parse(_ bytes: UnsafeRawBufferPointer, into entries: inout EntryBuffer) throws(JSONParseError) {
        let end = bytes.count
        guard end < Int(UInt32.max) else { throw JSONParseError(.tooLarge, at: 0) }
        guard let base = bytes.baseAddress else { throw JSONParseError(.empty, at: 0) }
        var position = skipWhitespace(base, from: 0, to: end)
        guard position < end else { throw JSONParseError(.empty, at: 0) }

        // Room without a check per entry. Every entry starts at its own byte, and after a string,
        // number, Boolean or null (a member's name included) the next entry starts at least two
        // bytes further on (a comma or colon lies between), so from a value starting at `p` on, the
        // rest of the input holds at most (end - p + 1) / 2 + 1 entries unless it opens containers
        // (`[[[[` is one entry a byte): each open checks the room again, for the rest of the input
        // after its bracket. The reserve is at most about ten bytes of entries per byte of input.
        var count = entries.count
        if entries.capacity &- count < ((end &- position &+ 1) >> 1) &+ 1 {
            entries.count = count
            entries.reserve(count &+ ((end &- position &+ 1) >> 1) &+ 1)
        }
        var tape = entries.base
        // The innermost open container (-1: none), whether it is an object, and how many of its
        // values have ended (written to its entry when it closes).
        var parent = -1
        var inObject = false
        var members: UInt32 = 0
        var depth = 0

        values: while true {
            // A member's name is read below, after this block, when it breaks out to `key` (one copy
            // of that code for both places a name comes: after `{` and after a comma in an object).
            key: do {
                // A value starts at `position`, or whitespace before it.
                guard position < end else { throw JSONParseError(.unexpectedEnd, at: position) }
                let start = position
                let byte = base.load(fromByteOffset: position, as: UInt8.self)
                if byte == UInt8(ascii: "\"") {
                    let escapes: Bool
                    (position, escapes) = try scanString(bytes, from: position)
                    write(.string, from: start, to: position, escapes: escapes, tape, &count)
                } else {
                    switch byte {
                    case UInt8(ascii: "{"), UInt8(ascii: "["):
                        depth &+= 1
                        guard depth <= JSONTape.maximumDepth else { throw JSONParseError(.tooDeep, at: position) }
                        // Room for this entry and all the rest of the input can hold after the bracket
                        // (see the reserve above).
                        if entries.capacity &- count < ((end &- position) >> 1) &+ 2 {
                            entries.count = count
                            entries.reserve(count &+ ((end &- position) >> 1) &+ 2)
                            tape = entries.base
                        }
                        if parent >= 0 { tape[parent].count = members }
                        let object = byte == UInt8(ascii: "{")
                        (tape + count).initialize(
                            to: .init(
                                kind: object ? .object : .array, hasEscapes: false, start: UInt32(truncatingIfNeeded: start),
                                end: 0, next: UInt32(truncatingIfNeeded: parent &+ 1), count: 0))
                        parent = count
                        count &+= 1
                        members = 0
                        inObject = object
                        position &+= 1
                        if position < end, base.load(fromByteOffset: position, as: UInt8.self) <= 0x20 {
                            position = skipSpace(base, from: position, to: end)
                        }
                        if position < end, base.load(fromByteOffset: position, as: UInt8.self) == byte &+ 2 {
                            // `}` and `]` are two after `{` and `[`: an empty container, closed below.
                            position &+= 1
                            close(tape, at: position, count: count, &parent, &members, &inObject, &depth)
                        } else {
                            if object { break key }
                            continue values
                        }
                    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                        // A plain integer (a request's id) by a small scan that cannot fail; a sign,
                        // a fraction or an exponent by the whole number's scan.
                        if byte != UInt8(ascii: "-"), case let next = scanInteger(base, from: position, to: end), next >= 0 {
                            position = next
                        } else {
                            position = try scanNumber(bytes, from: position)
                        }
                        write(.number, from: start, to: position, tape, &count)
                    case UInt8(ascii: "t"):
                        position = try literal("true", 0x6575_7274, bytes, at: position)
                        write(.bool, from: start, to: position, value: 1, tape, &count)
                    case UInt8(ascii: "f"):
                        position = try literal("false", 0x6573_6C61, bytes, at: position)
                        write(.bool, from: start, to: position, tape, &count)
                    case UInt8(ascii: "n"):
                        position = try literal("null", 0x6C6C_756E, bytes, at: position)
                        write(.null, from: start, to: position, tape, &count)
                    case 0x20, 0x0A, 0x0D, 0x09:
                        position = skipSpace(base, from: position, to: end)
                        continue values
                    default:
                        throw JSONParseError(.unexpectedCharacter, at: position)
                    }
                }

                // A value ended: the next member or element, or the end of its container, or of the text.
                while parent >= 0 {
                    members &+= 1
                    guard position < end else { throw JSONParseError(.unexpectedEnd, at: position) }
                    var next = base.load(fromByteOffset: position, as: UInt8.self)
                    if next <= 0x20 {
                        position = skipSpace(base, from: position, to: end)
                        guard position < end else { throw JSONParseError(.unexpectedEnd, at: position) }
                        next = base.load(fromByteOffset: position, as: UInt8.self)
                    }
                    position &+= 1
                    if next == UInt8(ascii: ",") {
                        if inObject { break key }
                        continue values
                    }
                    guard next == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                        throw JSONParseError(.unexpectedCharacter, at: position &- 1)
                    }
                    close(tape, at: position, count: count, &parent, &members, &inObject, &depth)
                }
                break values
            }
            try readKey(bytes, &position, tape, &count)
        }

        entries.count = count
        position = skipWhitespace(base, from: position, to: end)
        if position < end { throw JSONParseError(.trailingData, at: position) }
    }

    /// Writes the entry of a string, number, Boolean or null from `start` to `end` (`value`: a
    /// Boolean's truth) at `count`, and counts it.
    @inline(__always)
    static func write(
        _ kind: JSONKind, from start: Int, to end: Int, escapes: Bool = false, value: UInt32 = 0,
        _ tape: UnsafeMutablePointer<JSONTape.Entry>, _ count: inout Int
    ) {
        (tape + count).initialize(
            to: .init(
                kind: kind, hasEscapes: escapes, start: UInt32(truncatingIfNeeded: start),
                end: UInt32(truncatingIfNeeded: end), next: UInt32(truncatingIfNeeded: count &+ 1), count: value))
        count &+= 1
    }

    /// Reads a member's name and its colon (from just after the `{` or comma), leaving `position`
    /// after the colon.
    ///
    /// `@_transparent`, not `@inline(__always)`: with the latter the optimizer left this and
    /// ``scanString(_:from:)`` out of line in the parser (calls and spills, docs/benchmarks.md),
    /// which is what they exist to avoid.
    @_transparent
    static func readKey(
        _ bytes: UnsafeRawBufferPointer, _ position: inout Int, _ tape: UnsafeMutablePointer<JSONTape.Entry>,
        _ count: inout Int
    ) throws(JSONParseError) {
        let end = bytes.count
        guard let base = bytes.baseAddress, position < end else { throw JSONParseError(.unexpectedEnd, at: position) }
        if base.load(fromByteOffset: position, as: UInt8.self) != UInt8(ascii: "\"") {
            position = skipSpace(base, from: position, to: end)
            guard position < end else { throw JSONParseError(.unexpectedEnd, at: position) }
            guard base.load(fromByteOffset: position, as: UInt8.self) == UInt8(ascii: "\"") else {
                throw JSONParseError(.unexpectedCharacter, at: position)
            }
        }
        let keyStart = position
        let escapes: Bool
        (position, escapes) = try scanString(bytes, from: position)
        write(.string, from: keyStart, to: position, escapes: escapes, tape, &count)
        guard position < end else { throw JSONParseError(.unexpectedEnd, at: position) }
        if base.load(fromByteOffset: position, as: UInt8.self) != UInt8(ascii: ":") {
            position = skipSpace(base, from: position, to: end)
            guard position < end else { throw JSONParseError(.unexpectedEnd, at: position) }
            guard base.load(fromByteOffset: position, as: UInt8.self) == UInt8(ascii: ":") else {
                throw JSONParseError(.unexpectedCharacter, at: position)
            }
        }
        position &+= 1
    }

    /// Closes the innermost container at `position` (just past its bracket) and makes the one
    /// around it current again: its index, kind and running count of values.
    @inline(__always)
    static func close(
        _ tape: UnsafeMutablePointer<JSONTape.Entry>, at position: Int, count: Int, _ parent: inout Int,
        _ members: inout UInt32, _ inObject: inout Bool, _ depth: inout Int
    ) {
        let closed = tape + parent
        let outer = Int(closed.pointee.next) &- 1
        closed.pointee.end = UInt32(truncatingIfNeeded: position)
        closed.pointee.next = UInt32(truncatingIfNeeded: count)
        closed.pointee.count = members
        depth &-= 1
        parent = outer
        if outer >= 0 {
            members = tape[outer].count
            inObject = tape[outer].kind == .object
        }
    }

    /// ``skipWhitespace(_:from:to:)`` out of line, where whitespace is rare (between tokens; compact
    /// JSON has none): the parser's loop stays small enough to be compiled as one function.
    @inline(never)
    static func skipSpace(_ base: UnsafeRawPointer, from position: Int, to end: Int) -> Int {
        skipWhitespace(base, from: position, to: end)
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
    ///
    /// Plain text is skipped eight bytes at a time (``StringBytes/firstSpecialInString(_:from:to:)``,
    /// which reads the input's last bytes as one word too), and a two-byte UTF-8 scalar (Latin,
    /// Greek, Cyrillic text) is checked here; the rest (escapes, longer scalars, errors) goes to
    /// ``scanStringRest(_:at:)`` from the byte that needs it, which reads on as it always did.
    /// `@_transparent` for the reason ``readKey(_:_:_:_:)`` gives.
    @_transparent
    static func scanString(_ bytes: UnsafeRawBufferPointer, from quote: Int) throws(JSONParseError) -> (Int, Bool) {
        let end = bytes.count
        guard let base = bytes.baseAddress else { return try scanStringRest(bytes, at: quote &+ 1) }
        var position = quote &+ 1
        while true {
            position = StringBytes.firstSpecialInString(base, from: position, to: end)
            guard position < end else { break }
            let byte = base.load(fromByteOffset: position, as: UInt8.self)
            if byte == UInt8(ascii: "\"") { return (position &+ 1, false) }
            // C2...DF and one continuation byte: what UTF8Validation.skipScalar accepts in two bytes.
            guard byte &- 0xC2 < 0x1E, position &+ 1 < end,
                base.load(fromByteOffset: position &+ 1, as: UInt8.self) & 0xC0 == 0x80
            else { break }
            position &+= 2
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
            position = StringBytes.firstSpecial(in: bytes, from: position, stopAtNonASCII: true)
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
                position = try UTF8Validation.skipScalar(bytes, at: position)
            }
        }
        throw JSONParseError(.unexpectedEnd, at: position)
    }

    /// Checks the literal at `position` (its first byte is known to match) and returns the offset
    /// after it: one four-byte comparison (`word` is the literal's bytes after its first for `false`,
    /// from its first for the others), and byte by byte only to find where a wrong one goes wrong.
    @inline(__always)
    static func literal(_ literal: StaticString, _ word: UInt32, _ bytes: UnsafeRawBufferPointer, at position: Int)
        throws(JSONParseError) -> Int
    {
        let length = literal.utf8CodeUnitCount
        if position &+ length <= bytes.count,
            UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: position &+ length &- 4, as: UInt32.self)) == word
        {
            return position &+ length
        }
        return try expectLiteral(literal, bytes, at: position)
    }

    /// Checks the literal at `position` (its first byte is known to match) and returns the offset after it.
    @inline(never)
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

    /// The offset after the integer starting at `start` (a digit), read as ``scanNumber(_:from:)``
    /// reads an integer part (a leading zero ends it), or -1 when a decimal point or an exponent
    /// follows: then the number is scanned whole. Out of line and small, so that the parser's loop
    /// keeps its registers: in line, the loop made the payment request's parse dearer.
    @inline(never)
    static func scanInteger(_ base: UnsafeRawPointer, from start: Int, to end: Int) -> Int {
        var next = start &+ 1
        if base.load(fromByteOffset: start, as: UInt8.self) != UInt8(ascii: "0") {
            while next < end, isDigit(base.load(fromByteOffset: next, as: UInt8.self)) { next &+= 1 }
        }
        guard next < end else { return next }
        let byte = base.load(fromByteOffset: next, as: UInt8.self)
        return byte == UInt8(ascii: ".") || byte | 0x20 == UInt8(ascii: "e") ? -1 : next
    }

    /// Scans a number starting at `start` (a minus sign or a digit) and returns the offset after it.
    @inline(never)
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
}

@inline(__always)
func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

@inline(__always)
func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
    default: return nil
    }
}
