/// Text kept as the UTF-8 bytes it was put together from, for a result built from pieces on a hot
/// path (`tatra.executePayment`'s confirmation text).
///
/// It goes into the response as a JSON string straight from its bytes. A `String` made from the
/// same pieces costs more than the rest of putting them together: `String(decoding:as:)` checks
/// the UTF-8 again (about 700 instructions for 80 bytes), and the writer then reads it back out to
/// escape it. The bytes are valid UTF-8 by construction: they only ever come from `String`s and
/// other texts, whole, and from bytes a writer's caller vouches for (``Writer/append(utf8:)``). Its schema is a plain string's, so a client cannot tell it from a `String`.
///
/// The bytes live in a `ManagedBuffer` subclass rather than a `[UInt8]`: making an array of a
/// size known only at run time looks up the array storage's generic metadata on every call, a
/// lookup that cost as much as the rest of filling in the text. Texts never change their bytes
/// once made (trimming only shortens the view), so they share the buffer safely, across threads
/// too: hence `@unchecked Sendable` (a `ManagedBuffer` is never `Sendable` itself).
public struct UTF8Text: JSONCodable, @unchecked Sendable, Hashable, CustomStringConvertible {
    @usableFromInline let storage: UTF8TextStorage
    /// How many bytes of the storage the text is.
    public private(set) var count: Int

    @usableFromInline
    init(storage: UTF8TextStorage, count: Int) {
        self.storage = storage
        self.count = count
    }

    /// The text of `string`.
    public init(_ string: String) {
        let count = string.utf8.count
        self.init(count: count) { $0.append(string) }
    }

    /// A text of exactly `count` bytes, written by `build` through a ``Writer``: one allocation,
    /// and each piece one `memcpy` (`Array.append(contentsOf:)` costs about a hundred instructions
    /// a piece, more than copying a short piece does). Inlinable, with the writer, so that the
    /// pieces are copied where they are named, without a call per piece.
    /// - Precondition: `build` appends exactly `count` bytes.
    @inlinable
    public init(count: Int, _ build: (inout Writer) -> Void) {
        let storage = UTF8TextStorage.make(capacity: count)
        storage.withUnsafeMutablePointerToElements { base in
            var writer = Writer(buffer: UnsafeMutableBufferPointer(start: base, count: count))
            build(&writer)
            precondition(writer.position == count, "UTF8Text(count:) wrote \(writer.position) bytes, not \(count)")
        }
        self.init(storage: storage, count: count)
    }

    /// Appends whole texts and strings to a ``UTF8Text`` being made.
    public struct Writer: ~Copyable {
        @usableFromInline let buffer: UnsafeMutableBufferPointer<UInt8>
        @usableFromInline var position = 0

        @inlinable
        init(buffer: UnsafeMutableBufferPointer<UInt8>) {
            self.buffer = buffer
        }

        /// Appends the bytes of `string`.
        @inlinable
        public mutating func append(_ string: String) {
            // Native and small strings have contiguous UTF-8 (a bridged one would not).
            let copied: Void? = string.utf8.withContiguousStorageIfAvailable { copy(UnsafeRawBufferPointer($0)) }
            if copied == nil { Array(string.utf8).withUnsafeBytes { copy($0) } }
        }

        /// Appends `text`.
        @inlinable
        public mutating func append(_ text: UTF8Text) {
            text.withUnsafeBytes { copy($0) }
        }

        /// Appends `bytes`, which must be valid UTF-8 (a number's ASCII digits written on the
        /// stack, say): a text's bytes are valid UTF-8 by construction.
        @inlinable
        public mutating func append(utf8 bytes: UnsafeRawBufferPointer) {
            copy(bytes)
        }

        @inlinable
        mutating func copy(_ source: UnsafeRawBufferPointer) {
            guard let from = source.baseAddress, !source.isEmpty else { return }
            precondition(position + source.count <= buffer.count, "UTF8Text(count:) is writing past its count")
            UnsafeMutableRawPointer(buffer.baseAddress! + position).copyMemory(from: from, byteCount: source.count)
            position += source.count
        }
    }

    /// Calls `body` with the text's bytes.
    @inlinable
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointerToElements { try body(UnsafeRawBufferPointer(start: $0, count: count)) }
    }

    /// A copy of the UTF-8 bytes.
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// Drops spaces at the end (what a placeholder left empty at the end of a template leaves).
    public mutating func trimTrailingSpaces() {
        count = withUnsafeBytes { bytes in
            var end = bytes.count
            while end > 0, bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
            return end
        }
    }

    /// Whether the text has no bytes.
    public var isEmpty: Bool { count == 0 }

    /// The text as a `String`.
    public var description: String { withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }

    public static func == (left: UTF8Text, right: UTF8Text) -> Bool {
        left.withUnsafeBytes { a in right.withUnsafeBytes { b in a.elementsEqual(b) } }
    }

    public func hash(into hasher: inout Hasher) {
        withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    public init(json: JSONElement) throws(JSONDecodingError) {
        self.init(try String(json: json))
    }

    public func encode(to writer: inout JSONWriter) {
        withUnsafeBytes { writer.string(utf8: $0) }
    }
}

/// The bytes of ``UTF8Text``s: written once, when the text is made, and only read afterwards.
public final class UTF8TextStorage: ManagedBuffer<Void, UInt8> {
    /// A buffer with room for `capacity` bytes.
    @inlinable
    static func make(capacity: Int) -> UTF8TextStorage {
        // `create` returns the subclass it is called on; the downcast only states that.
        unsafeDowncast(create(minimumCapacity: Swift.max(capacity, 1)) { _ in }, to: UTF8TextStorage.self)
    }
}
