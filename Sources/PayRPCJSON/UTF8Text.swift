/// Text kept as the UTF-8 bytes it was put together from, for a result built from pieces on a hot
/// path (`tatra.executePayment`'s confirmation text).
///
/// It goes into the response as a JSON string straight from its bytes. A `String` made from the
/// same pieces costs more than the rest of putting them together: `String(decoding:as:)` checks
/// the UTF-8 again (docs/benchmarks.md), and the writer then reads it back out to
/// escape it. The bytes are valid UTF-8 by construction: they only ever come from `String`s and
/// other texts, whole, and from bytes a writer's caller vouches for (``Writer/append(utf8:)``). Its schema is a plain string's, so a client cannot tell it from a `String`.
///
/// The bytes live in a `ManagedBuffer` subclass rather than a `[UInt8]`: making an array of a
/// size known only at run time looks up the array storage's generic metadata on every call, a
/// lookup that cost as much as the rest of filling in the text. Texts never change bytes another
/// text can see (trimming only shortens the view; ``rewrite(count:_:)`` writes only into storage
/// no other text shares), so they share the buffer safely, across threads too: hence
/// `@unchecked Sendable` (a `ManagedBuffer` is never `Sendable` itself).
public struct UTF8Text: JSONCodable, @unchecked Sendable, Hashable, CustomStringConvertible {
    @usableFromInline var storage: UTF8TextStorage
    @usableFromInline var byteCount: Int
    @usableFromInline var escapeFree: Bool

    /// How many bytes of the storage the text is.
    public var count: Int { byteCount }

    /// Whether the text is known to need no escaping inside a JSON string (no quote, backslash or
    /// control character): then ``encode(to:)`` writes it between quotes as one append, without
    /// looking at its bytes again. False only says "not known": the writer then escapes as for any
    /// string. Learned while the text is put together, from pieces whose makers know it (a
    /// template's literal text, checked once when loaded; an amount's ASCII digits) or by looking
    /// at a piece as it is copied, fewer bytes than the whole text (the confirmation's name and
    /// phone, not its literal text and amount).
    public var isEscapeFree: Bool { escapeFree }

    @usableFromInline
    init(storage: UTF8TextStorage, count: Int, isEscapeFree: Bool) {
        self.storage = storage
        self.byteCount = count
        self.escapeFree = isEscapeFree
    }

    /// The empty text.
    public init() {
        self.init(count: 0) { _ in }
    }

    /// The text of `string`.
    public init(_ string: String) {
        let count = string.utf8.count
        self.init(count: count) { $0.append(string) }
    }

    /// A text of exactly `count` bytes, written by `build` through a ``Writer``: one allocation,
    /// and each piece one `memcpy` (`Array.append(contentsOf:)` costs more per piece than copying
    /// a short piece does). Inlinable, with the writer, so that the
    /// pieces are copied where they are named, without a call per piece.
    /// - Precondition: `build` appends exactly `count` bytes.
    @inlinable
    public init(count: Int, _ build: (inout Writer) -> Void) {
        let storage = UTF8TextStorage.make(capacity: count)
        let escapeFree = Self.write(count: count, into: storage, build)
        self.init(storage: storage, count: count, isEscapeFree: escapeFree)
    }

    /// Makes this text the `count` bytes `build` writes, as ``init(count:_:)`` does, but in the
    /// text's own storage when no other text shares it and it has room: a text kept for the next
    /// one of its kind (a connection's confirmation) is then rewritten without an allocation, and
    /// without the free of the one before. Storage shared with a copy that is still alive (a
    /// result not yet written out, a test holding it) is never written to: the text gets new
    /// storage (room for at least 64 bytes, so that a confirmation of a usual length fits the next time), and the copy keeps its bytes.
    /// - Precondition: `build` appends exactly `count` bytes.
    @inlinable
    public mutating func rewrite(count: Int, _ build: (inout Writer) -> Void) {
        if !isKnownUniquelyReferenced(&storage) || storage.header < count {
            storage = UTF8TextStorage.make(capacity: Swift.max(count, 64))
        }
        escapeFree = Self.write(count: count, into: storage, build)
        byteCount = count
    }

    /// Runs `build` over the first `count` bytes of `storage`; returns whether every piece was
    /// escape-free.
    @inlinable
    static func write(count: Int, into storage: UTF8TextStorage, _ build: (inout Writer) -> Void) -> Bool {
        storage.withUnsafeMutablePointerToElements { base in
            var writer = Writer(buffer: UnsafeMutableBufferPointer(start: base, count: count))
            build(&writer)
            precondition(writer.position == count, "UTF8Text wrote \(writer.position) bytes, not \(count)")
            return writer.isEscapeFree
        }
    }

    /// Appends whole texts and strings to a ``UTF8Text`` being made.
    public struct Writer: ~Copyable {
        @usableFromInline let buffer: UnsafeMutableBufferPointer<UInt8>
        @usableFromInline var position = 0
        /// Whether every piece so far is known to need no JSON escaping.
        @usableFromInline var isEscapeFree = true

        @inlinable
        init(buffer: UnsafeMutableBufferPointer<UInt8>) {
            self.buffer = buffer
        }

        /// Appends the bytes of `string`, looking for what JSON escapes as they are copied.
        @inlinable
        public mutating func append(_ string: String) {
            // Native and small strings have contiguous UTF-8 (a bridged one would not).
            let copied: Void? = string.utf8.withContiguousStorageIfAvailable { copyChecking(UnsafeRawBufferPointer($0)) }
            if copied == nil { Array(string.utf8).withUnsafeBytes { copyChecking($0) } }
        }

        /// Appends `text`, which knows whether it needs escaping.
        @inlinable
        public mutating func append(_ text: UTF8Text) {
            text.withUnsafeBytes { copy($0) }
            isEscapeFree = isEscapeFree && text.isEscapeFree
        }

        /// Appends `bytes`, which must be valid UTF-8 (a number's ASCII digits written on the
        /// stack, say): a text's bytes are valid UTF-8 by construction. They are looked at for
        /// what JSON escapes.
        @inlinable
        public mutating func append(utf8 bytes: UnsafeRawBufferPointer) {
            copyChecking(bytes)
        }

        /// Appends `bytes`, which must be valid UTF-8 and need no escaping in a JSON string (no
        /// quote, backslash or control character: an amount's digits, a piece of a text whose
        /// ``UTF8Text/isEscapeFree`` is true): copied without being looked at.
        @inlinable
        public mutating func append(escapeFreeUTF8 bytes: UnsafeRawBufferPointer) {
            assert(UTF8Text.isEscapeFree(bytes), "append(escapeFreeUTF8:) was given a byte that JSON escapes")
            copy(bytes)
        }

        @inlinable
        mutating func copyChecking(_ source: UnsafeRawBufferPointer) {
            copy(source)
            if isEscapeFree { isEscapeFree = UTF8Text.isEscapeFree(source) }
        }

        @inlinable
        mutating func copy(_ source: UnsafeRawBufferPointer) {
            guard let from = source.baseAddress, !source.isEmpty else { return }
            precondition(position + source.count <= buffer.count, "UTF8Text is writing past its count")
            UnsafeMutableRawPointer(buffer.baseAddress! + position).copyMemory(from: from, byteCount: source.count)
            position += source.count
        }
    }

    /// Calls `body` with the text's bytes.
    @inlinable
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointerToElements { try body(UnsafeRawBufferPointer(start: $0, count: byteCount)) }
    }

    /// A copy of the UTF-8 bytes.
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// Drops spaces at the end (what a placeholder left empty at the end of a template leaves).
    /// A space needs no escaping, so what was escape-free stays so.
    public mutating func trimTrailingSpaces() {
        byteCount = withUnsafeBytes { bytes in
            var end = bytes.count
            while end > 0, bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
            return end
        }
    }

    /// Whether `bytes` need no escaping in a JSON string: no quote, backslash or control
    /// character.
    ///
    /// `StringBytes`' tests eight bytes at a time, without looking for where the first such byte
    /// is: the words' flags or'ed together, the last word read again where it overlaps the one
    /// before, so that a name or phone number of 9 to 15 bytes is two words and no byte loop
    /// (`StringBytes.firstSpecial`, which finds the position, tests a tail byte by byte, most of
    /// the cost for a phone number). A borrow flags only lanes above a lane flagged
    /// already, so whether any lane is flagged is exact. Fewer than eight bytes are put into a
    /// word of spaces, one by one.
    @usableFromInline
    static func isEscapeFree(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        let ones: UInt64 = 0x0101_0101_0101_0101
        @inline(__always) func flags(_ word: UInt64) -> UInt64 {
            let quotes = word ^ (ones &* 0x22), backslashes = word ^ (ones &* 0x5C)
            return (((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes) | ((word &- ones &* 0x20) & ~word))
                & (ones &* 0x80)
        }
        if count >= 8 {
            var flagged: UInt64 = 0
            var position = 0
            while position &+ 8 <= count {
                flagged |= flags(UInt64(littleEndian: base.loadUnaligned(fromByteOffset: position, as: UInt64.self)))
                position &+= 8
            }
            flagged |= flags(UInt64(littleEndian: base.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)))
            return flagged == 0
        }
        var word = ones &* 0x20
        for index in 0..<count {
            let shift = UInt64(index &* 8)
            word = (word & ~(0xFF << shift)) | (UInt64(base.load(fromByteOffset: index, as: UInt8.self)) << shift)
        }
        return flags(word) == 0
    }

    /// Whether the text has no bytes.
    public var isEmpty: Bool { count == 0 }

    /// The text as a `String`.
    public var description: String { withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }

    /// Texts are equal when their bytes are (what is known about escaping them does not count).
    public static func == (left: UTF8Text, right: UTF8Text) -> Bool {
        left.withUnsafeBytes { a in right.withUnsafeBytes { b in a.elementsEqual(b) } }
    }

    public func hash(into hasher: inout Hasher) {
        withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    public init(json: JSONElement) throws(JSONDecodingError) {
        self.init(try String(json: json))
    }

    /// Writes the text as a JSON string: an escape-free text as its bytes between quotes, in one
    /// append; any other escaped as a `String` is.
    public func encode(to writer: inout JSONWriter) {
        withUnsafeBytes { bytes in
            if escapeFree { writer.string(escapeFreeUTF8: bytes) } else { writer.string(utf8: bytes) }
        }
    }
}

/// The bytes of ``UTF8Text``s, and their capacity as the header: written when a text is made (or
/// rewritten, when no other text shares them: ``UTF8Text/rewrite(count:_:)``), only read while
/// shared.
public final class UTF8TextStorage: ManagedBuffer<Int, UInt8> {
    /// A buffer with room for `capacity` bytes.
    @inlinable
    static func make(capacity: Int) -> UTF8TextStorage {
        // `create` returns the subclass it is called on; the downcast only states that. The
        // capacity asked for is kept (`ManagedBuffer.capacity` asks the allocator each time).
        let capacity = Swift.max(capacity, 1)
        return unsafeDowncast(create(minimumCapacity: capacity) { _ in capacity }, to: UTF8TextStorage.self)
    }
}
