import PayRPCJSON

/// An amount in minor units written as decimal text (`1250` cents → `12.50`), its ASCII bytes
/// kept inline in the value: for a service that prints amounts on its hot path (a confirmation
/// text), where making a `String` would allocate.
///
/// Goes into a ``UTF8Text`` as one copy that needs no JSON escaping
/// (``PayRPCJSON/UTF8Text/Writer/append(_:)-(MinorUnitsText)``), and into a template through
/// ``TemplateOutput/append(_:)-(MinorUnitsText)``. Its text is `Amount(units:scale:)`'s: a minus
/// sign when negative, at least one digit before the point and exactly `scale` after it.
public struct MinorUnitsText: Sendable, Equatable, CustomStringConvertible {
    /// The bytes, right-aligned: room for 19 digits, a point and a sign.
    @usableFromInline var storage: (UInt64, UInt64, UInt64)
    /// Where the text starts in ``storage``.
    @usableFromInline var start: Int

    @usableFromInline static var capacity: Int { 24 }

    /// `units` as text with `scale` decimals (`MinorUnitsText(-7)` is `-0.07`;
    /// `MinorUnitsText(1250, scale: 0)` is `1250`).
    /// - Precondition: `scale` is 0 to 18.
    @inlinable
    public init(_ units: Int64, scale: Int = 2) {
        precondition(scale >= 0 && scale <= 18, "MinorUnitsText supports 0 to 18 decimals")
        var storage: (UInt64, UInt64, UInt64) = (0, 0, 0)
        let end = Self.capacity
        // The shortest text: one digit, or `0.` and the decimals.
        let shortest = scale == 0 ? 1 : scale + 2
        var start = end
        withUnsafeMutableBytes(of: &storage) { buffer in
            var magnitude = units.magnitude
            // Digits from the last, the point after `scale` of them.
            repeat {
                start -= 1
                buffer[start] = UInt8(truncatingIfNeeded: magnitude % 10) &+ UInt8(ascii: "0")
                magnitude /= 10
                if scale > 0 && start == end - scale {
                    start -= 1
                    buffer[start] = UInt8(ascii: ".")
                }
            } while magnitude > 0 || start > end - shortest
            if units < 0 {
                start -= 1
                buffer[start] = UInt8(ascii: "-")
            }
        }
        self.storage = storage
        self.start = start
    }

    /// How many bytes the text has.
    @inlinable
    public var count: Int { Self.capacity - start }

    /// Calls `body` with the text's ASCII bytes.
    @inlinable
    public func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try Swift.withUnsafeBytes(of: storage) { buffer in
            try body(UnsafeRawBufferPointer(rebasing: buffer[start...]))
        }
    }

    /// The text as a `String`.
    public var description: String { withBytes { String(decoding: $0, as: UTF8.self) } }

    public static func == (left: MinorUnitsText, right: MinorUnitsText) -> Bool {
        left.withBytes { left in right.withBytes { right in left.elementsEqual(right) } }
    }
}

extension UTF8Text.Writer {
    /// Appends the text of `amount`: ASCII digits, a point and a sign, which need no escaping.
    @inlinable
    public mutating func append(_ amount: MinorUnitsText) {
        amount.withBytes { append(escapeFreeUTF8: $0) }
    }
}
