/// A parsed JSON text, kept as a flat tape of tokens over the original bytes.
///
/// This is payrpc's hot-path JSON reader. Foundation's `JSONDecoder` costs 11–13 µs for one
/// 160-byte request on the machines this runs on, ten times what the whole libuv transport
/// spends on the same line, and it cannot keep a request id's raw bytes (ids beyond 2^53 must
/// be echoed exactly). So each line is parsed once, in place: one pass that validates the
/// grammar and UTF-8 and records, for every value, its kind and byte span. Nothing is
/// decoded until asked for: a string becomes a `String` only when a codec reads it, and a
/// request id is echoed from its raw bytes.
///
/// A tape is reused line after line (``parse(_:)`` keeps the capacity of its entry array), so
/// parsing a request allocates nothing once the tape has grown to the size of typical input.
/// A tape parsed in place reads bytes it does not own: the buffer must outlive every use of
/// the tape's elements. ``JSONTape/init(copying:)`` makes a tape that owns a copy. The tape
/// itself must outlive its elements too, which do not retain it (see ``JSONElement``).
/// `@unchecked Sendable`: a tape is filled by one thread and only read once handed over (its buffer is unsafe memory).
public final class JSONTape: @unchecked Sendable {
    /// One token of the tape.
    @usableFromInline
    struct Entry {
        /// The kind of the value.
        @usableFromInline var kind: JSONKind
        /// For strings: whether the text contains a backslash escape.
        @usableFromInline var hasEscapes: Bool
        /// Byte offset where the value starts (for strings, the opening quote).
        @usableFromInline var start: UInt32
        /// Byte offset just past the value's last byte.
        @usableFromInline var end: UInt32
        /// Index of the tape entry after this value and all of its children.
        @usableFromInline var next: UInt32
        /// Number of elements (arrays) or members (objects); 0 otherwise.
        @usableFromInline var count: UInt32
    }

    // Read on every element access: no dynamic exclusivity check (a tape is used by one thread at a time).
    @exclusivity(unchecked) @usableFromInline var entries = EntryBuffer(capacity: 64)
    @exclusivity(unchecked) @usableFromInline var base: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0)
    private var owned: UnsafeMutableRawBufferPointer?

    /// Maximum nesting depth accepted; deeper input is a parse error, never a stack overflow.
    public static let maximumDepth = 512

    /// Makes an empty tape to be filled by ``parse(_:)``.
    public init() {}

    /// Parses a copy of `bytes`; the tape owns the copy and stays valid on its own.
    /// - Throws: ``JSONParseError`` when the bytes are not one JSON text.
    public convenience init<Bytes: Collection<UInt8>>(copying bytes: Bytes) throws(JSONParseError) {
        self.init()
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: Swift.max(bytes.count, 1), alignment: 1)
        // One copy of contiguous bytes (arrays, slices: every caller); the element-by-element
        // copy through a generic iterator was 70 % of the store's document encoding.
        let copied: Void? = bytes.withContiguousStorageIfAvailable { source in
            if let base = source.baseAddress { storage.baseAddress!.copyMemory(from: base, byteCount: source.count) }
        }
        if copied == nil { _ = storage.initializeMemory(as: UInt8.self, from: bytes) }
        owned = storage
        try parse(UnsafeRawBufferPointer(rebasing: storage[0..<bytes.count]))
    }

    /// Parses a copy of the UTF-8 text.
    public convenience init(string: String) throws(JSONParseError) {
        try self.init(copying: Array(string.utf8))
    }

    deinit {
        owned?.deallocate()
        entries.deallocate()
    }

    /// Parses `buffer` in place, replacing what the tape held before.
    ///
    /// The tape reads `buffer` later when its elements are used: keep it alive and unchanged
    /// until the last use of any element of this parse.
    /// - Throws: ``JSONParseError`` with the byte offset of the first problem.
    public func parse(_ buffer: UnsafeRawBufferPointer) throws(JSONParseError) {
        entries.removeAll()
        base = buffer
        var parser = Parser(bytes: buffer)
        try parser.parseDocument(into: &entries)
    }

    /// The top-level value. Only meaningful after a successful parse.
    ///
    /// Elements do not keep the tape alive: a tape held in a local is released after its last
    /// use, which may come before its elements are read. Read them inside ``withRoot(_:)``, or
    /// keep the tape in a stored property.
    @inlinable
    public var root: JSONElement { JSONElement(tape: self, index: 0) }

    /// Calls `body` with the top-level value, keeping the tape alive until it returns.
    @inlinable
    public func withRoot<Result, Failure: Error>(_ body: (JSONElement) throws(Failure) -> Result) throws(Failure) -> Result {
        try withExtendedLifetime(self) { () throws(Failure) -> Result in try body(root) }
    }

    /// The bytes the tape was parsed from.
    public var bytes: UnsafeRawBufferPointer { base }
}

/// A tape's entries: a growable buffer of trivial values that the tape owns and frees.
///
/// Written by hand instead of a `ContiguousArray` because every element access reads it: an
/// array stored in a class property is retained and bounds-checked on each read, a pointer is
/// not. The indices read come from the tape itself (each entry's `next`), so they are in range.
@usableFromInline
struct EntryBuffer {
    @usableFromInline var base: UnsafeMutablePointer<JSONTape.Entry>
    @usableFromInline var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 1)
        base = .allocate(capacity: self.capacity)
    }

    @inlinable
    subscript(index: Int) -> JSONTape.Entry {
        get { base[index] }
        nonmutating set { base[index] = newValue }
    }

    @inline(__always)
    mutating func append(_ entry: JSONTape.Entry) {
        if count == capacity { grow() }
        (base + count).initialize(to: entry)
        count += 1
    }

    private mutating func grow() {
        let grown = UnsafeMutablePointer<JSONTape.Entry>.allocate(capacity: capacity * 2)
        grown.moveInitialize(from: base, count: count)
        base.deallocate()
        base = grown
        capacity *= 2
    }

    /// Forgets the entries, keeping the memory (entries are trivial: nothing to deinitialize).
    mutating func removeAll() { count = 0 }

    func deallocate() { base.deallocate() }
}

/// The six kinds of JSON value.
public enum JSONKind: UInt8, Sendable {
    case null, bool, number, string, array, object
}

/// Why a text is not JSON, and where.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public enum Reason: String, Sendable {
        case empty = "empty input"
        case unexpectedEnd = "unexpected end of input"
        case unexpectedCharacter = "unexpected character"
        case invalidNumber = "invalid number"
        case invalidEscape = "invalid escape sequence"
        case controlCharacterInString = "unescaped control character in string"
        case invalidUTF8 = "invalid UTF-8"
        case tooDeep = "nesting too deep"
        case trailingData = "unexpected data after the JSON value"
        case tooLarge = "input too large"
    }

    /// What is wrong.
    public var reason: Reason
    /// Byte offset of the problem.
    public var offset: Int

    public init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    public var description: String { "\(reason.rawValue) at byte \(offset)" }
}

/// The single-pass recursive-descent parser behind ``JSONTape``.
struct Parser {
    let bytes: UnsafeRawBufferPointer
    var position = 0
    var depth = 0

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    mutating func parseDocument(into entries: inout EntryBuffer) throws(JSONParseError) {
        guard bytes.count < Int(UInt32.max) else { throw JSONParseError(.tooLarge, at: 0) }
        skipWhitespace()
        guard position < bytes.count else { throw JSONParseError(.empty, at: 0) }
        try parseValue(into: &entries)
        skipWhitespace()
        if position < bytes.count { throw JSONParseError(.trailingData, at: position) }
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    mutating func parseValue(into entries: inout EntryBuffer) throws(JSONParseError) {
        guard position < bytes.count else { throw JSONParseError(.unexpectedEnd, at: position) }
        let start = position
        switch bytes[position] {
        case UInt8(ascii: "{"):
            try parseObject(into: &entries)
        case UInt8(ascii: "["):
            try parseArray(into: &entries)
        case UInt8(ascii: "\""):
            let escapes = try scanString()
            entries.append(
                .init(
                    kind: .string, hasEscapes: escapes, start: UInt32(start), end: UInt32(position),
                    next: UInt32(entries.count + 1), count: 0))
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            entries.append(
                .init(
                    kind: .bool, hasEscapes: false, start: UInt32(start), end: UInt32(position),
                    next: UInt32(entries.count + 1), count: 1))
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            entries.append(
                .init(
                    kind: .bool, hasEscapes: false, start: UInt32(start), end: UInt32(position),
                    next: UInt32(entries.count + 1), count: 0))
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            entries.append(
                .init(
                    kind: .null, hasEscapes: false, start: UInt32(start), end: UInt32(position),
                    next: UInt32(entries.count + 1), count: 0))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try scanNumber()
            entries.append(
                .init(
                    kind: .number, hasEscapes: false, start: UInt32(start), end: UInt32(position),
                    next: UInt32(entries.count + 1), count: 0))
        default:
            throw JSONParseError(.unexpectedCharacter, at: position)
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw JSONParseError(.unexpectedEnd, at: bytes.count) }
        let pointer = literal.utf8Start
        for offset in 0..<count where bytes[position + offset] != pointer[offset] {
            throw JSONParseError(.unexpectedCharacter, at: position + offset)
        }
        position += count
    }

    mutating func parseObject(into entries: inout EntryBuffer) throws(JSONParseError) {
        depth += 1
        guard depth <= JSONTape.maximumDepth else { throw JSONParseError(.tooDeep, at: position) }
        let index = entries.count
        let start = position
        entries.append(.init(kind: .object, hasEscapes: false, start: UInt32(start), end: 0, next: 0, count: 0))
        position += 1
        skipWhitespace()
        var count: UInt32 = 0
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
        } else {
            while true {
                skipWhitespace()
                guard position < bytes.count else { throw JSONParseError(.unexpectedEnd, at: position) }
                guard bytes[position] == UInt8(ascii: "\"") else {
                    throw JSONParseError(.unexpectedCharacter, at: position)
                }
                let keyStart = position
                let escapes = try scanString()
                entries.append(
                    .init(
                        kind: .string, hasEscapes: escapes, start: UInt32(keyStart),
                        end: UInt32(position), next: UInt32(entries.count + 1), count: 0))
                skipWhitespace()
                guard position < bytes.count else { throw JSONParseError(.unexpectedEnd, at: position) }
                guard bytes[position] == UInt8(ascii: ":") else {
                    throw JSONParseError(.unexpectedCharacter, at: position)
                }
                position += 1
                skipWhitespace()
                try parseValue(into: &entries)
                count += 1
                skipWhitespace()
                guard position < bytes.count else { throw JSONParseError(.unexpectedEnd, at: position) }
                let byte = bytes[position]
                position += 1
                if byte == UInt8(ascii: ",") { continue }
                if byte == UInt8(ascii: "}") { break }
                throw JSONParseError(.unexpectedCharacter, at: position - 1)
            }
        }
        entries[index].end = UInt32(position)
        entries[index].next = UInt32(entries.count)
        entries[index].count = count
        depth -= 1
    }

    mutating func parseArray(into entries: inout EntryBuffer) throws(JSONParseError) {
        depth += 1
        guard depth <= JSONTape.maximumDepth else { throw JSONParseError(.tooDeep, at: position) }
        let index = entries.count
        let start = position
        entries.append(.init(kind: .array, hasEscapes: false, start: UInt32(start), end: 0, next: 0, count: 0))
        position += 1
        skipWhitespace()
        var count: UInt32 = 0
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
        } else {
            while true {
                skipWhitespace()
                try parseValue(into: &entries)
                count += 1
                skipWhitespace()
                guard position < bytes.count else { throw JSONParseError(.unexpectedEnd, at: position) }
                let byte = bytes[position]
                position += 1
                if byte == UInt8(ascii: ",") { continue }
                if byte == UInt8(ascii: "]") { break }
                throw JSONParseError(.unexpectedCharacter, at: position - 1)
            }
        }
        entries[index].end = UInt32(position)
        entries[index].next = UInt32(entries.count)
        entries[index].count = count
        depth -= 1
    }

    /// Scans a string starting at its opening quote; leaves `position` after the closing one.
    /// Returns whether the string contains escapes.
    mutating func scanString() throws(JSONParseError) -> Bool {
        position += 1
        var escapes = false
        while position < bytes.count {
            skipPlainASCII()
            guard position < bytes.count else { break }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return escapes
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
            } else if byte < 0x80 {
                position += 1
            } else {
                position = try UTF8Validation.skipScalar(bytes, at: position)
            }
        }
        throw JSONParseError(.unexpectedEnd, at: position)
    }

    /// Skips the bytes that need no closer look (no quote, backslash, control character or
    /// byte outside ASCII), eight at a time; the byte loop handles the one it stops at.
    @inline(__always)
    mutating func skipPlainASCII() {
        position = StringBytes.firstSpecial(in: bytes, from: position, stopAtNonASCII: true)
    }

    mutating func scanNumber() throws(JSONParseError) {
        let start = position
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count else { throw JSONParseError(.invalidNumber, at: start) }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else if isDigit(bytes[position]) {
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        } else {
            throw JSONParseError(.invalidNumber, at: start)
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw JSONParseError(.invalidNumber, at: start)
            }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw JSONParseError(.invalidNumber, at: start)
            }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
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
