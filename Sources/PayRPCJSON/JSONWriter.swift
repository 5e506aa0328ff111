/// Writes JSON text straight into a byte buffer: payrpc's hot-path JSON writer.
///
/// Foundation's `JSONEncoder` costs 7–9 µs for a small response here and writes keys in hash
/// order; this writer appends bytes to one growing buffer (a connection's output, reused
/// across responses) with no intermediate values. Commas are placed by looking at the last
/// byte written, so callers only say where members and elements begin.
public struct JSONWriter: Sendable {
    /// The bytes written so far.
    public var bytes: [UInt8]

    /// Makes a writer over an empty buffer with room for `capacity` bytes.
    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Makes a writer that appends to `bytes`.
    public init(appendingTo bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The text written so far.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    // MARK: Structure

    /// Writes `{`.
    @inlinable public mutating func beginObject() { bytes.append(UInt8(ascii: "{")) }
    /// Writes `}`.
    @inlinable public mutating func endObject() { bytes.append(UInt8(ascii: "}")) }
    /// Writes `[`.
    @inlinable public mutating func beginArray() { bytes.append(UInt8(ascii: "[")) }
    /// Writes `]`.
    @inlinable public mutating func endArray() { bytes.append(UInt8(ascii: "]")) }

    /// Writes a comma unless the value about to be written is the first of its container.
    ///
    /// This and the other small structural writes are always inlined: left to the optimizer, they
    /// stayed calls from the generated encoders (`separate` cost mostly the call itself).
    @inlinable @inline(__always)
    public mutating func separate() {
        if let last = bytes.last, last != UInt8(ascii: "{"), last != UInt8(ascii: "["),
            last != UInt8(ascii: ":")
        {
            bytes.append(UInt8(ascii: ","))
        }
    }

    /// Starts an object member: a comma when needed, the quoted key and a colon.
    /// The key is written as is: it must need no escaping (codecs pass literal keys).
    @inlinable @inline(__always)
    public mutating func key(_ name: StaticString) {
        separate()
        let count = name.utf8CodeUnitCount
        appendBytes(count: count + 3) { out in
            out.storeBytes(of: UInt8(ascii: "\""), as: UInt8.self)
            (out + 1).copyMemory(from: name.utf8Start, byteCount: count)
            (out + 1 + count).storeBytes(of: UInt8(ascii: "\""), as: UInt8.self)
            (out + 2 + count).storeBytes(of: UInt8(ascii: ":"), as: UInt8.self)
        }
    }

    /// Starts an object member whose key may need escaping.
    @_disfavoredOverload
    public mutating func key(_ name: String) {
        separate()
        string(name)
        bytes.append(UInt8(ascii: ":"))
    }

    /// Starts an array element: a comma when needed.
    @inlinable @inline(__always)
    public mutating func element() { separate() }

    // MARK: Scalars

    /// Writes `null`.
    public mutating func null() { bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C]) }

    /// Writes `true` or `false`.
    public mutating func bool(_ value: Bool) {
        if value {
            bytes.append(contentsOf: [0x74, 0x72, 0x75, 0x65])
        } else {
            bytes.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65])
        }
    }

    /// Writes an integer.
    public mutating func int<I: BinaryInteger>(_ value: I) {
        if value == 0 {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        var magnitude = value.magnitude
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes of scratch on the stack
        withUnsafeMutableBytes(of: &digits) { scratch in
            var position = scratch.count
            while magnitude > 0 {
                position -= 1
                scratch[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[position...]))
        }
    }

    /// Writes a floating-point number (non-finite values become `null`, which JSON lacks).
    public mutating func double(_ value: Double) {
        guard value.isFinite else {
            null()
            return
        }
        if value.rounded() == value, abs(value) < 1e15 {
            int(Int64(value))
        } else {
            bytes.append(contentsOf: "\(value)".utf8)
        }
    }

    /// Writes bytes that are already JSON text (a raw id, a pre-encoded value).
    @inlinable
    public mutating func raw(_ json: UnsafeRawBufferPointer) { append(json) }

    /// Writes bytes that are already JSON text.
    @inlinable
    public mutating func raw(_ json: [UInt8]) { json.withUnsafeBytes { append($0) } }

    /// Writes static text that is already JSON.
    ///
    /// Always inlined: the text's length is then a constant where it is written, and the copy is
    /// a few moves instead of a call to `memmove` (`"}\n"` is written twice per `rpc.health`).
    @inlinable @inline(__always)
    public mutating func raw(_ json: StaticString) {
        append(UnsafeRawBufferPointer(start: json.utf8Start, count: json.utf8CodeUnitCount))
    }

    /// Writes static text, bytes and static text that are already JSON, in one append: a response's
    /// start (`{"jsonrpc":"2.0","id":`, the request's id, `,"result":`). Always inlined, as
    /// the static-text `raw`: the static parts are copied as constants.
    @inlinable @inline(__always)
    public mutating func raw(_ prefix: StaticString, _ middle: UnsafeRawBufferPointer, _ suffix: StaticString) {
        let prefixCount = prefix.utf8CodeUnitCount, middleCount = middle.count, suffixCount = suffix.utf8CodeUnitCount
        appendBytes(count: prefixCount + middleCount + suffixCount) { out in
            out.copyMemory(from: prefix.utf8Start, byteCount: prefixCount)
            if middleCount > 0 { Self.copyShort(middle.baseAddress!, to: out + prefixCount, count: middleCount) }
            (out + prefixCount + middleCount).copyMemory(from: suffix.utf8Start, byteCount: suffixCount)
        }
    }

    /// Copies `count` bytes that are usually few (a request's id): up to sixteen as two
    /// overlapping loads and stores, without the call to `memmove` (which cost more than the copy
    /// of an id of a few digits); longer runs with `copyMemory`.
    @inlinable @inline(__always)
    static func copyShort(_ source: UnsafeRawPointer, to destination: UnsafeMutableRawPointer, count: Int) {
        switch count {
        case 8...16:
            let head = source.loadUnaligned(as: UInt64.self)
            let tail = source.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            destination.storeBytes(of: head, as: UInt64.self)
            destination.storeBytes(of: tail, toByteOffset: count - 8, as: UInt64.self)
        case 4..<8:
            let head = source.loadUnaligned(as: UInt32.self)
            let tail = source.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            destination.storeBytes(of: head, as: UInt32.self)
            destination.storeBytes(of: tail, toByteOffset: count - 4, as: UInt32.self)
        case 1..<4:
            // First, middle and last byte: the same byte more than once when there are fewer.
            destination.storeBytes(of: source.load(as: UInt8.self), as: UInt8.self)
            destination.storeBytes(
                of: source.load(fromByteOffset: count >> 1, as: UInt8.self), toByteOffset: count >> 1, as: UInt8.self)
            destination.storeBytes(
                of: source.load(fromByteOffset: count - 1, as: UInt8.self), toByteOffset: count - 1, as: UInt8.self)
        case 0:
            break
        default:
            destination.copyMemory(from: source, byteCount: count)
        }
    }

    /// Appends `source`: one capacity check and one copy.
    @inlinable @inline(__always)
    mutating func append(_ source: UnsafeRawBufferPointer) {
        let count = source.count
        appendBytes(count: count) { $0.copyMemory(from: source.baseAddress!, byteCount: count) }
    }

    /// Appends `count` bytes that `fill` writes into the buffer's free space.
    ///
    /// `Array.append(contentsOf:)` costs more before it copies a byte than a short copy does (the
    /// generic path through `_copyContents`), and every response is a handful of short pieces:
    /// the response's prefix, the id, each key. `append(addingCapacity:)` checks the capacity
    /// once and hands over the free space.
    /// - Precondition: `fill` writes exactly `count` bytes.
    @inlinable @inline(__always)
    mutating func appendBytes(count: Int, _ fill: (UnsafeMutableRawPointer) -> Void) {
        guard count > 0 else { return }
        bytes.append(addingCapacity: count) { span in
            span.withUnsafeMutableBufferPointer { buffer, initialized in
                fill(UnsafeMutableRawPointer(buffer.baseAddress!))
                initialized = count
            }
        }
    }

    /// Writes a quoted, escaped string.
    public mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in string(utf8: UnsafeRawBufferPointer(utf8)) }
    }

    /// Writes a quoted, escaped string from UTF-8 bytes.
    public mutating func string(utf8: UnsafeRawBufferPointer) {
        var index = StringBytes.firstSpecial(in: utf8, from: 0, stopAtNonASCII: false)
        if index == utf8.count {
            // Nothing to escape (the usual string): the quotes and the text in one piece.
            string(escapeFreeUTF8: utf8)
            return
        }
        bytes.append(UInt8(ascii: "\""))
        var runStart = 0
        while index < utf8.count {
            let byte = utf8[index]
            defer { index = StringBytes.firstSpecial(in: utf8, from: index + 1, stopAtNonASCII: false) }
            if runStart < index { append(UnsafeRawBufferPointer(rebasing: utf8[runStart..<index])) }
            runStart = index + 1
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x08: bytes.append(contentsOf: [0x5C, UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [0x5C, UInt8(ascii: "f")])
            default:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [
                    0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                    hex[Int(byte >> 4)], hex[Int(byte & 0xF)],
                ])
            }
        }
        if runStart < utf8.count { append(UnsafeRawBufferPointer(rebasing: utf8[runStart...])) }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes UTF-8 bytes known to need no escaping (no quote, backslash or control character)
    /// as a JSON string: the quotes and the bytes in one append, without looking at the bytes. For
    /// text whose maker knows it is escape-free (``UTF8Text/isEscapeFree``); anything else goes
    /// through ``string(utf8:)``, which looks.
    @inlinable
    public mutating func string(escapeFreeUTF8 utf8: UnsafeRawBufferPointer) {
        let count = utf8.count
        appendBytes(count: count + 2) { out in
            out.storeBytes(of: UInt8(ascii: "\""), as: UInt8.self)
            if count > 0 { (out + 1).copyMemory(from: utf8.baseAddress!, byteCount: count) }
            (out + 1 + count).storeBytes(of: UInt8(ascii: "\""), as: UInt8.self)
        }
    }

    /// Writes a member whose value is encodable.
    @inlinable
    public mutating func member<Value: JSONEncodable>(_ name: StaticString, _ value: Value) {
        key(name)
        value.encode(to: &self)
    }

    /// Writes a member whose value is optional; a nil value leaves the member out.
    @inlinable
    public mutating func member<Value: JSONEncodable>(_ name: StaticString, _ value: Value?) {
        guard let value else { return }
        key(name)
        value.encode(to: &self)
    }
}
