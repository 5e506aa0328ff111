#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One value of a ``JSONTape``: a position on the tape, read lazily.
///
/// Elements are cheap to copy (a reference and an index) and do not keep their tape alive: an
/// element is valid only while its tape is alive (and, for a tape parsed in place, while the
/// parsed buffer is) and has not been reused. Keep the tape in a stored property, or use
/// ``JSONTape/withRoot(_:)``, for as long as its elements are read.
public struct JSONElement: Sendable {
    /// The tape, unretained.
    @usableFromInline let reference: TapeReference
    /// The element's index on the tape.
    public let index: Int

    @inlinable
    init(_ reference: TapeReference, index: Int) {
        self.reference = reference
        self.index = index
    }

    @inlinable
    init(tape: JSONTape, index: Int) {
        self.init(TapeReference(tape), index: index)
    }

    /// The tape this element belongs to.
    public var tape: JSONTape { reference.tape }

    @inlinable
    var entry: JSONTape.Entry { reference.tape.entries[index] }

    /// The kind of value.
    @inlinable
    public var kind: JSONKind { entry.kind }

    /// Whether the value is `null`.
    @inlinable
    public var isNull: Bool { entry.kind == .null }

    /// The raw bytes of the value as they appear in the input (strings with their quotes).
    @inlinable
    public var rawBytes: UnsafeRawBufferPointer {
        let entry = self.entry
        return UnsafeRawBufferPointer(rebasing: reference.tape.base[Int(entry.start)..<Int(entry.end)])
    }

    /// A copy of the raw bytes.
    public var rawArray: [UInt8] { Array(rawBytes) }

    /// The raw text of the value.
    public var rawText: String { String(decoding: rawBytes, as: UTF8.self) }

    /// The byte offset of the value in the input.
    public var offset: Int { Int(entry.start) }

    /// The Boolean value, or nil when the value is not a Boolean.
    @inlinable
    public var bool: Bool? {
        let entry = self.entry
        return entry.kind == .bool ? entry.count == 1 : nil
    }

    /// Number of elements of an array or members of an object; 0 for other kinds.
    @inlinable
    public var count: Int { Int(entry.count) }

    // MARK: Strings

    /// The bytes between the quotes of a string, escapes not decoded.
    ///
    /// Made from the tape's offsets directly (the parser checked them): a slice of the input
    /// rebased was a call for every string a codec read.
    @inlinable @inline(__always)
    public var stringContentBytes: UnsafeRawBufferPointer? {
        let entry = self.entry
        guard entry.kind == .string else { return nil }
        return UnsafeRawBufferPointer(
            start: reference.tape.base.baseAddress.unsafelyUnwrapped + Int(entry.start &+ 1),
            count: Int(entry.end &- entry.start) &- 2)
    }

    /// Whether the value is a string written with backslash escapes (its content bytes are then
    /// not its text).
    @inlinable
    public var hasEscapes: Bool { entry.hasEscapes }

    /// The decoded string, or nil when the value is not a string.
    ///
    /// A string without escapes is copied as it is: the parser checked its UTF-8 already, so it is
    /// not checked again. `String(decoding:as:)` did, which was about a third of the cost of
    /// decoding `tatra.executePayment`'s params (scripts/callgrind.sh).
    public var string: String? {
        let entry = self.entry
        guard entry.kind == .string, let content = stringContentBytes else { return nil }
        if !entry.hasEscapes { return Self.validatedString(content) }
        return JSONElement.unescape(content)
    }

    /// A `String` of bytes the parser has checked to be UTF-8, copied without checking them again.
    ///
    /// Whether they are all ASCII is found here, eight bytes at a time, for the few strings that
    /// are made: the parser noting it for every string and key cost more than it saved.
    ///
    /// Up to 15 bytes, the string is made inline from its words (``SmallString``), which is most
    /// of the strings params carry (names, phone numbers, codes).
    @inline(__always)
    static func validatedString(_ content: UnsafeRawBufferPointer) -> String {
        if content.count <= SmallString.capacity, SmallString.isAvailable { return SmallString.make(content) }
        // Always true on Linux; `UTF8Span` is in Apple's standard library from the 26 releases on.
        guard #available(macOS 26, iOS 26, watchOS 26, tvOS 26, visionOS 26, *) else {
            return String(decoding: content, as: UTF8.self)
        }
        let span = unsafe content.assumingMemoryBound(to: UInt8.self).span
        return String(copying: unsafe UTF8Span(unchecked: span, isKnownASCII: StringBytes.isASCII(content)))
    }

    /// Whether the value is a string equal to `text`, compared without allocating when the
    /// string has no escapes. (Disfavoured, so that a literal picks the `StaticString` overload.)
    @_disfavoredOverload
    public func stringEquals(_ text: String) -> Bool {
        let entry = self.entry
        guard entry.kind == .string else { return false }
        if entry.hasEscapes { return string == text }
        let start = Int(entry.start) + 1
        let length = Int(entry.end) - start - 1
        let utf8 = text.utf8
        // The length first: a native string knows it, and most names differ in it.
        guard utf8.count == length else { return false }
        if length == 0 { return true }
        let content = reference.tape.base.baseAddress! + start
        return utf8.withContiguousStorageIfAvailable { memcmp($0.baseAddress!, content, length) == 0 }
            ?? utf8.elementsEqual(UnsafeRawBufferPointer(start: content, count: length))
    }

    /// Whether the value is a string equal to the static text, compared byte for byte.
    ///
    /// Names and keywords are short: a loop over their bytes, inlined where they are named, costs
    /// less than the call to `memcmp` it replaces.
    @inlinable @inline(__always)
    public func stringEquals(_ text: StaticString) -> Bool {
        let entry = self.entry
        guard entry.kind == .string else { return false }
        if entry.hasEscapes { return string == text.description }
        let length = Int(entry.end - entry.start) - 2
        guard length == text.utf8CodeUnitCount else { return false }
        let content = reference.tape.base.baseAddress! + Int(entry.start) + 1
        let expected = text.utf8Start
        var index = 0
        while index < length {
            if content.load(fromByteOffset: index, as: UInt8.self) != expected[index] { return false }
            index += 1
        }
        return true
    }

    static func unescape(_ content: UnsafeRawBufferPointer) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(content.count)
        var index = 0
        func appendScalar(_ value: UInt32) {
            let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
            out.append(contentsOf: String(Character(scalar)).utf8)
        }
        while index < content.count {
            let byte = content[index]
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                index += 1
                continue
            }
            let code = content[index + 1]
            index += 2
            switch code {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var value: UInt32 = 0
                for offset in 0..<4 { value = value << 4 | (hexValue(content[index + offset]) ?? 0) }
                index += 4
                if (0xD800...0xDBFF).contains(value), index + 5 < content.count + 0,
                    content[index] == UInt8(ascii: "\\"), content[index + 1] == UInt8(ascii: "u")
                {
                    var low: UInt32 = 0
                    for offset in 2..<6 { low = low << 4 | (hexValue(content[index + offset]) ?? 0) }
                    if (0xDC00...0xDFFF).contains(low) {
                        index += 6
                        appendScalar(0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00))
                        continue
                    }
                }
                appendScalar(value)  // a lone surrogate becomes U+FFFD
            default: out.append(code)  // \" \\ \/
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: Numbers

    /// The number as a signed 64-bit integer, or nil when it is not an integer in range
    /// (a fraction or exponent that leaves an integral value, such as `1.0` or `1e2`, counts).
    public var int64: Int64? {
        let entry = self.entry
        guard entry.kind == .number else { return nil }
        let bytes = rawBytes
        var negative = false
        var index = 0
        if bytes[0] == UInt8(ascii: "-") {
            negative = true
            index = 1
        }
        var value: Int64 = 0
        while index < bytes.count, isDigit(bytes[index]) {
            let digit = Int64(bytes[index] - UInt8(ascii: "0"))
            let (multiplied, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (added, overflow2) =
                negative
                ? multiplied.subtractingReportingOverflow(digit)
                : multiplied.addingReportingOverflow(digit)
            if overflow1 || overflow2 { return nil }
            value = added
            index += 1
        }
        if index == bytes.count { return value }
        guard let double = self.double, double.rounded() == double, abs(double) < 9.2e18 else { return nil }
        return Int64(double)
    }

    /// The number as a `Double`, or nil when the value is not a number.
    public var double: Double? {
        guard entry.kind == .number else { return nil }
        return Double(rawText)
    }

    /// The number's text exactly as written, or nil when the value is not a number.
    public var numberText: String? {
        entry.kind == .number ? rawText : nil
    }

    // MARK: Containers

    /// The elements of an array (empty for other kinds).
    @inlinable
    public var arrayElements: ArrayElements { ArrayElements(reference, parent: index) }

    /// The members of an object (empty for other kinds), in input order.
    @inlinable
    public var objectMembers: ObjectMembers { ObjectMembers(reference, parent: index) }

    /// The value of the first member named `key`, or nil (also when not an object).
    ///
    /// Walks the entries through one pointer and compares a name's length before anything else:
    /// most names differ from the key in it (the engine asks every request's params for `_meta`,
    /// which was a call per member through ``stringEquals(_:)-(StaticString)``). A
    /// name of the key's length is compared by its bytes, or by its text when it has escapes.
    public func member(_ key: StaticString) -> JSONElement? {
        // The entries' pointer, not the tape: a strong reference to the tape bound here was
        // retained and released around the walk.
        let entries = reference.tape.entries.base
        let object = entries[index]
        guard object.kind == .object else { return nil }
        let length = UInt32(truncatingIfNeeded: key.utf8CodeUnitCount)
        var current = index &+ 1
        let end = Int(object.next)
        while current < end {
            let name = entries[current]
            // Every name is a string: its length between the quotes, escapes not decoded (a name
            // with escapes is longer than its text, so only a longer one can then match).
            let nameLength = name.end &- name.start &- 2
            if nameLength == length || (name.hasEscapes && nameLength > length),
                JSONElement(reference, index: current).stringEquals(key)
            {
                return JSONElement(reference, index: current &+ 1)
            }
            current = Int(entries[current &+ 1].next)
        }
        return nil
    }

    /// The value of the first member named `key`, or nil (also when not an object).
    @_disfavoredOverload
    public func member(_ key: String) -> JSONElement? {
        memberIndex { $0.stringEquals(key) }.map { JSONElement(reference, index: $0) }
    }

    /// The tape index of the value of the first member whose name passes `isKey`. Walks the
    /// tape's entries directly: no iterator and no element per member.
    @inline(__always)
    private func memberIndex(_ isKey: (JSONElement) -> Bool) -> Int? {
        let entries = reference.tape.entries
        let object = entries[index]
        guard object.kind == .object else { return nil }
        var current = index + 1
        let end = Int(object.next)
        while current < end {
            if isKey(JSONElement(reference, index: current)) { return current + 1 }
            current = Int(entries[current + 1].next)
        }
        return nil
    }

    /// The elements of an array, in order.
    ///
    /// The sequences and their iterators are inlinable, so that they are walked (by codecs and
    /// the validator) without a call per element.
    public struct ArrayElements: Sequence {
        @usableFromInline let reference: TapeReference
        @usableFromInline let parent: Int

        @inlinable
        init(_ reference: TapeReference, parent: Int) {
            self.reference = reference
            self.parent = parent
        }

        @inlinable
        public func makeIterator() -> Iterator {
            let entry = reference.tape.entries[parent]
            return entry.kind == .array
                ? Iterator(reference, current: parent + 1, end: Int(entry.next))
                : Iterator(reference, current: 0, end: 0)
        }

        /// Walks the elements by skipping over each one's subtree.
        public struct Iterator: IteratorProtocol {
            @usableFromInline let reference: TapeReference
            @usableFromInline var current: Int
            @usableFromInline let end: Int

            @inlinable
            init(_ reference: TapeReference, current: Int, end: Int) {
                self.reference = reference
                self.current = current
                self.end = end
            }

            @inlinable
            public mutating func next() -> JSONElement? {
                guard current < end else { return nil }
                let element = JSONElement(reference, index: current)
                current = Int(reference.tape.entries[current].next)
                return element
            }
        }
    }

    /// The members of an object, as (name, value) pairs in input order.
    public struct ObjectMembers: Sequence {
        @usableFromInline let reference: TapeReference
        @usableFromInline let parent: Int

        @inlinable
        init(_ reference: TapeReference, parent: Int) {
            self.reference = reference
            self.parent = parent
        }

        @inlinable
        public func makeIterator() -> Iterator {
            let entry = reference.tape.entries[parent]
            return entry.kind == .object
                ? Iterator(reference, current: parent + 1, end: Int(entry.next))
                : Iterator(reference, current: 0, end: 0)
        }

        /// Walks the members: a key entry, then the value's subtree.
        public struct Iterator: IteratorProtocol {
            @usableFromInline let reference: TapeReference
            @usableFromInline var current: Int
            @usableFromInline let end: Int

            @inlinable
            init(_ reference: TapeReference, current: Int, end: Int) {
                self.reference = reference
                self.current = current
                self.end = end
            }

            @inlinable
            public mutating func next() -> (name: JSONElement, value: JSONElement)? {
                guard current < end else { return nil }
                let name = JSONElement(reference, index: current)
                let value = JSONElement(reference, index: current + 1)
                current = Int(reference.tape.entries[current + 1].next)
                return (name, value)
            }
        }
    }
}

extension JSONElement {
    /// Structural equality as JSON Schema defines it: numbers compare by value (`1` equals
    /// `1.0`), objects regardless of member order, strings after decoding escapes. An object that
    /// repeats a name equals an object with the same members, repeats included.
    public func jsonEquals(_ other: JSONElement) -> Bool {
        guard kind == other.kind else { return false }
        switch kind {
        case .null: return true
        case .bool: return bool == other.bool
        case .number:
            if let left = int64, let right = other.int64 { return left == right }
            return double == other.double
        case .string:
            if !entry.hasEscapes && !other.entry.hasEscapes {
                let left = stringContentBytes!, right = other.stringContentBytes!
                return left.count == right.count
                    && (left.count == 0 || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0)
            }
            return string == other.string
        case .array:
            guard count == other.count else { return false }
            return zip(arrayElements, other.arrayElements).allSatisfy { $0.jsonEquals($1) }
        case .object:
            guard count == other.count else { return false }
            // Members are matched one to one, so that an object that repeats a name equals itself
            // (looking each name up found its first member only: `{"a":1,"a":2}` was unequal to
            // itself, found by the json_reader fuzz target) and equal objects hash alike
            // (`structuralHash` in PayRPCSchema sums every member).
            let candidates = Array(other.objectMembers)
            var matched = [Bool](repeating: false, count: candidates.count)
            for (name, value) in objectMembers {
                guard
                    let position = candidates.indices.first(where: {
                        !matched[$0] && candidates[$0].name.jsonEquals(name) && candidates[$0].value.jsonEquals(value)
                    })
                else { return false }
                matched[position] = true
            }
            return true
        }
    }
}

/// An element's reference to its tape, which does not keep the tape alive.
///
/// Elements are made and dropped for every member of every request, by the engine, the
/// validator and every codec: as strong references they cost two atomic reference-count
/// operations each, about 70 per `tatra.executePayment` and a fifth of its CPU time with the
/// rest of the reference counting. Their tape always outlives them where they are used (the
/// engine's per-connection tape, or a tape kept in scope with ``JSONTape/withRoot(_:)``).
/// Debug builds, where the tests run, check that: the reference is `unowned`, and reading an
/// element whose tape is gone stops the program instead of reading freed memory.
@usableFromInline
struct TapeReference: Sendable {
    #if DEBUG
    @usableFromInline unowned let tape: JSONTape
    #else
    @usableFromInline unowned(unsafe) let tape: JSONTape
    #endif

    @inlinable
    init(_ tape: JSONTape) {
        self.tape = tape
    }
}
