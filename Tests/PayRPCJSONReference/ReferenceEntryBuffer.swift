import PayRPCJSON

/// One token of the reference parser's tape: the fields of `JSONTape.Entry` with the same meaning,
/// compared field for field with the shipped parser's (``TapeParserDifferential``).
public struct ReferenceEntry: Equatable, Sendable {
    /// The kind of the value.
    public var kind: JSONKind
    /// For strings: whether the text contains a backslash escape.
    public var hasEscapes: Bool
    /// Byte offset where the value starts (for strings, the opening quote).
    public var start: UInt32
    /// Byte offset just past the value's last byte.
    public var end: UInt32
    /// Index of the tape entry after this value and all of its children.
    public var next: UInt32
    /// Number of elements (arrays) or members (objects); 0 otherwise (1 for `true`).
    public var count: UInt32

    /// Makes an entry from its fields.
    public init(kind: JSONKind, hasEscapes: Bool, start: UInt32, end: UInt32, next: UInt32, count: UInt32) {
        self.kind = kind
        self.hasEscapes = hasEscapes
        self.start = start
        self.end = end
        self.next = next
        self.count = count
    }
}

/// The reference parser's entries: `EntryBuffer` as it was at f568cad (a growable buffer that
/// doubles), copied so that a change to the library's buffer cannot change the reference.
public struct ReferenceEntryBuffer {
    var base: UnsafeMutablePointer<ReferenceEntry>
    var count = 0
    private(set) var capacity: Int

    /// Makes an empty buffer; free it with ``deallocate()``.
    public init(capacity: Int) {
        self.capacity = Swift.max(capacity, 1)
        base = .allocate(capacity: self.capacity)
    }

    /// The entries written so far.
    public var entries: [ReferenceEntry] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Doubles the capacity, keeping the entries.
    mutating func grow() {
        let grown = UnsafeMutablePointer<ReferenceEntry>.allocate(capacity: capacity * 2)
        grown.moveInitialize(from: base, count: count)
        base.deallocate()
        base = grown
        capacity *= 2
    }

    /// Forgets the entries, keeping the memory.
    public mutating func removeAll() { count = 0 }

    /// Frees the memory.
    public func deallocate() { base.deallocate() }
}
