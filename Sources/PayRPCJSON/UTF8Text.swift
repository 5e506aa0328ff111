/// Text kept as the UTF-8 bytes it was put together from, for a result built from pieces on a hot
/// path (`tatra.executePayment`'s confirmation text).
///
/// It goes into the response as a JSON string straight from its bytes. A `String` made from the
/// same pieces costs more than the rest of putting them together: `String(decoding:as:)` checks
/// the UTF-8 again (about 700 instructions for 80 bytes), and the writer then reads it back out to
/// escape it. The bytes are valid UTF-8 by construction: they only ever come from `String`s and
/// other texts, whole. Its schema is a plain string's, so a client cannot tell it from a `String`.
public struct UTF8Text: JSONCodable, Sendable, Hashable, CustomStringConvertible {
    /// The UTF-8 bytes.
    public private(set) var bytes: [UInt8]

    @usableFromInline
    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The text of `string`.
    public init(_ string: String) {
        bytes = Array(string.utf8)
    }

    /// A text of exactly `count` bytes, written by `build` through a ``Writer``: one allocation,
    /// and each piece one `memcpy` (`Array.append(contentsOf:)` costs about a hundred instructions
    /// a piece, more than copying a short piece does). Inlinable, with the writer, so that the
    /// pieces are copied where they are named, without a call per piece.
    /// - Precondition: `build` appends exactly `count` bytes.
    @inlinable
    public init(count: Int, _ build: (inout Writer) -> Void) {
        self.init(bytes: [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var writer = Writer(buffer: buffer)
            build(&writer)
            precondition(writer.position == count, "UTF8Text(count:) wrote \(writer.position) bytes, not \(count)")
            initialized = count
        })
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
            if copied == nil { copy(Array(string.utf8)) }
        }

        /// Appends `text`.
        @inlinable
        public mutating func append(_ text: UTF8Text) {
            copy(text.bytes)
        }

        @inlinable
        mutating func copy(_ source: [UInt8]) {
            source.withUnsafeBytes { copy($0) }
        }

        @inlinable
        mutating func copy(_ source: UnsafeRawBufferPointer) {
            guard let from = source.baseAddress, !source.isEmpty else { return }
            precondition(position + source.count <= buffer.count, "UTF8Text(count:) is writing past its count")
            UnsafeMutableRawPointer(buffer.baseAddress! + position).copyMemory(from: from, byteCount: source.count)
            position += source.count
        }
    }

    /// Drops spaces at the end (what a placeholder left empty at the end of a template leaves).
    public mutating func trimTrailingSpaces() {
        while bytes.last == UInt8(ascii: " ") { bytes.removeLast() }
    }

    /// Whether the text has no bytes.
    public var isEmpty: Bool { bytes.isEmpty }

    /// The text as a `String`.
    public var description: String { String(decoding: bytes, as: UTF8.self) }

    public init(json: JSONElement) throws(JSONDecodingError) {
        self.init(try String(json: json))
    }

    public func encode(to writer: inout JSONWriter) {
        bytes.withUnsafeBytes { writer.string(utf8: $0) }
    }
}
