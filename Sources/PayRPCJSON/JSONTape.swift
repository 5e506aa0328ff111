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
    ///
    /// `package`, not API: the parser's differential tests (Tests/PayRPCJSONReference) compare it
    /// field for field with a frozen reference parser's.
    @usableFromInline
    package struct Entry {
        /// The kind of the value.
        @usableFromInline package var kind: JSONKind
        /// For strings: whether the text contains a backslash escape.
        @usableFromInline package var hasEscapes: Bool
        /// Byte offset where the value starts (for strings, the opening quote).
        @usableFromInline package var start: UInt32
        /// Byte offset just past the value's last byte.
        @usableFromInline package var end: UInt32
        /// Index of the tape entry after this value and all of its children.
        @usableFromInline package var next: UInt32
        /// Number of elements (arrays) or members (objects); 0 otherwise.
        @usableFromInline package var count: UInt32
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
        try JSONTapeParser.parse(buffer, into: &entries)
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

    /// How many entries the tape's buffer holds now (what it keeps between parses).
    package var entryCapacity: Int { entries.capacity }

    /// The entries of the last successful parse, in tape order: what the parser's differential
    /// tests and the `json_reader` fuzz target compare with the reference parser's (`package`, not API).
    package var parsedEntries: UnsafeBufferPointer<Entry> { UnsafeBufferPointer(start: entries.base, count: entries.count) }
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
    private(set) var capacity: Int

    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 1)
        base = .allocate(capacity: self.capacity)
    }

    @inlinable
    subscript(index: Int) -> JSONTape.Entry {
        get { base[index] }
        nonmutating set { base[index] = newValue }
    }

    /// Makes room for at least `minimum` entries (doubling), keeping the entries: the parser
    /// reserves once for the most entries its input can hold instead of checking at every entry.
    @inline(never)
    mutating func reserve(_ minimum: Int) {
        guard minimum > capacity else { return }
        var grownCapacity = capacity
        while grownCapacity < minimum { grownCapacity *= 2 }
        let grown = UnsafeMutablePointer<JSONTape.Entry>.allocate(capacity: grownCapacity)
        grown.moveInitialize(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = grownCapacity
    }

    /// The most entries a tape keeps between parses (about 1.3 MB); more is given back.
    static let retainedCapacity = 65_536

    /// Forgets the entries (trivial: nothing to deinitialize), keeping the memory unless it is
    /// over ``retainedCapacity``: the parser reserves up to about ten bytes of entries per byte of
    /// input, and a session that once read a large document should not hold that for its lifetime.
    mutating func removeAll() {
        count = 0
        if capacity > Self.retainedCapacity { shrink() }
    }

    @inline(never)
    private mutating func shrink() {
        base.deallocate()
        capacity = 64
        base = .allocate(capacity: capacity)
    }

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
