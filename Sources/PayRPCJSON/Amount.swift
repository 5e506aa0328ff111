/// An exact decimal number, as money travels in payrpc: an integer of units and the number of
/// digits after the decimal point (`"10.50"` is 1050 units at scale 2).
///
/// Every amount on the wire is a decimal string (`"10.00"`, as PayPal writes them) that matches
/// ``decimalPattern``. `Amount` is read straight from the request's bytes in one pass, where the
/// pattern check and the parse are the same loop, and written back from its integers with the
/// scale it was written with (`"10.00"` stays `"10.00"`). It never passes through a binary float,
/// a `String` or Foundation's `Decimal`: a `Decimal` drops the scale, costs about a microsecond to
/// compare on Linux, and has a layout known only at run time (every copy of a model holding one
/// went through value-witness calls).
///
/// Up to 18 significant digits fit (the units are an `Int64`); a longer text is refused by the
/// codec with a precise error, which is more than any currency's amounts need.
///
/// Equality and ordering are numeric: `"10.0" == "10.00"`. ``scale`` is kept for writing back.
public struct Amount: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The number times 10^scale: `1050` for `"10.50"`.
    public let units: Int64
    /// Digits after the decimal point, 0 to ``maximumScale``.
    public let scale: Int

    /// The most digits an amount may have after its point.
    public static let maximumScale = 18

    /// The most significant digits an amount may have: those of its integer part (a lone `0`
    /// does not count) and of its fraction, leading zeros included.
    public static let maximumDigits = 18

    /// The pattern of a decimal string: an optional minus, an integer part without leading zeros,
    /// an optional fraction, and at most ``maximumDigits`` digits, so that what a schema accepts
    /// the codec reads (the codecs fuzz target found `"10.000…0"` with 120 zeros accepted by the
    /// old unbounded pattern and refused by the codec). One alternative per length of the integer
    /// part, because the clients' validators include Go's RE2, which has no lookahead. Every money
    /// field's schema uses it.
    public static let decimalPattern: String = {
        var alternatives = ["0(\\.[0-9]{1,\(maximumDigits)})?"]
        for integerDigits in 1...maximumDigits {
            let fraction = maximumDigits - integerDigits
            let integer = integerDigits == 1 ? "[1-9]" : "[1-9][0-9]{\(integerDigits - 1)}"
            alternatives.append(fraction == 0 ? integer : integer + "(\\.[0-9]{1,\(fraction)})?")
        }
        return "^-?(" + alternatives.joined(separator: "|") + ")$"
    }()

    /// What an amount is, in words: with ``formatExample``, the schemas' `x-format` of every money
    /// field, which a client whose amount breaks ``decimalPattern`` reads in the violation
    /// (`must be an amount: a decimal string of at most 18 digits, e.g. "12.50"`).
    public static let formatSummary = "an amount: a decimal string of at most \(maximumDigits) digits"

    /// An amount as the wire carries it, for ``formatSummary``.
    public static let formatExample = "12.50"

    /// Zero at scale 0.
    public static let zero = Amount(units: 0, scale: 0)

    /// An amount of `units` at `scale` digits after the point.
    /// - Precondition: `scale` is in `0...18`.
    public init(units: Int64, scale: Int) {
        precondition((0...Self.maximumScale).contains(scale), "an Amount's scale is 0 to 18")
        self.units = units
        self.scale = scale
    }

    /// Reads a decimal string that matches ``decimalPattern``; nil when it does not, or when it
    /// has more than 18 significant digits.
    public init?(_ text: String) {
        var text = text
        guard let value = text.withUTF8({ Amount(utf8: UnsafeRawBufferPointer($0)) }) else { return nil }
        self = value
    }

    /// Reads UTF-8 bytes that match ``decimalPattern``, checking the pattern while it parses.
    ///
    /// An exact scanner of the pattern written by hand (the pattern's eighteen alternatives are
    /// one per length of the integer part, so that RE2 can read it; here they are one count of
    /// digits): an optional `-`, a lone `0` or a digit 1-9 and more digits, then optionally `.`
    /// and at least one digit, and at most ``maximumDigits`` digits in all (the `0` of `0.5` not
    /// counted). Eighteen digits are below 10^18, so the units never overflow and are accumulated
    /// without overflow checks; a longer text is read to its end and refused. It walks a pointer
    /// with no per-digit limit test, which made reading `"12.50"` a third of what it was.
    /// `AmountTests` compares it with `NSRegularExpression` on the pattern over generated texts.
    public init?(utf8 bytes: UnsafeRawBufferPointer) {
        guard var cursor = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        let end = cursor + bytes.count
        guard cursor < end else { return nil }
        let negative = cursor.pointee == UInt8(ascii: "-")
        if negative {
            cursor += 1
            guard cursor < end else { return nil }
        }
        let lead = cursor.pointee &- UInt8(ascii: "0")
        guard lead < 10 else { return nil }
        cursor += 1
        var magnitude = UInt64(lead)
        var digits = 0
        // A leading zero stands alone in the integer part (and is not a significant digit).
        if lead != 0 {
            let integerStart = cursor
            while cursor < end {
                let digit = cursor.pointee &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                magnitude = magnitude &* 10 &+ UInt64(digit)
                cursor += 1
            }
            digits = cursor - integerStart + 1
        }
        var scale = 0
        if cursor < end {
            guard cursor.pointee == UInt8(ascii: "."), cursor + 1 < end else { return nil }
            cursor += 1
            let fractionStart = cursor
            while cursor < end {
                let digit = cursor.pointee &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                magnitude = magnitude &* 10 &+ UInt64(digit)
                cursor += 1
            }
            scale = cursor - fractionStart
        }
        guard digits &+ scale <= Self.maximumDigits else { return nil }
        self.units = negative ? -Int64(magnitude) : Int64(magnitude)
        self.scale = scale
    }

    /// Whether the UTF-8 bytes match ``decimalPattern``: exactly what ``init(utf8:)`` reads (the
    /// validator's check for that pattern, which costs a fraction of a regular expression's match).
    public static func isDecimalText(utf8 bytes: UnsafeRawBufferPointer) -> Bool {
        Amount(utf8: bytes) != nil
    }

    /// Whether `text` matches ``decimalPattern``.
    public static func isDecimalText(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { isDecimalText(utf8: UnsafeRawBufferPointer($0)) }
    }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    // MARK: - Value

    /// Whether the amount is zero.
    public var isZero: Bool { units == 0 }
    /// Whether the amount is below zero.
    public var isNegative: Bool { units < 0 }

    /// The same number with trailing zeros of the fraction dropped (`"10.50"` → `"10.5"`,
    /// `"10.00"` → `"10"`): the fewest decimals that write it exactly.
    public var normalized: Amount {
        var units = self.units
        var scale = self.scale
        while scale > 0, units % 10 == 0 {
            units /= 10
            scale -= 1
        }
        return Amount(units: units, scale: scale)
    }

    /// The same number written with exactly `scale` digits after the point, or nil when that would
    /// drop a non-zero digit or not fit (`"10.5"` at 2 is `"10.50"`; `"10.505"` at 2 is nil).
    public func rescaled(to scale: Int) -> Amount? {
        guard (0...Self.maximumScale).contains(scale) else { return nil }
        if scale == self.scale { return self }
        if scale > self.scale {
            var units = self.units
            for _ in self.scale..<scale {
                let (product, overflow) = units.multipliedReportingOverflow(by: 10)
                guard !overflow else { return nil }
                units = product
            }
            return Amount(units: units, scale: scale)
        }
        var units = self.units
        for _ in scale..<self.scale {
            guard units % 10 == 0 else { return nil }
            units /= 10
        }
        return Amount(units: units, scale: scale)
    }

    /// The amount as an integer count of `10^-scale` (minor units: cents at scale 2), or nil
    /// when it has more decimals than `scale` or does not fit.
    public func minorUnits(scale: Int) -> Int64? { rescaled(to: scale)?.units }

    /// The sum, at the larger of the two scales, or nil when it does not fit.
    public func adding(_ other: Amount) -> Amount? {
        let scale = Swift.max(self.scale, other.scale)
        guard let left = rescaled(to: scale), let right = other.rescaled(to: scale) else { return nil }
        let (sum, overflow) = left.units.addingReportingOverflow(right.units)
        return overflow ? nil : Amount(units: sum, scale: scale)
    }

    /// The difference, at the larger of the two scales, or nil when it does not fit.
    public func subtracting(_ other: Amount) -> Amount? {
        guard other.units != .min else { return nil }
        return adding(Amount(units: -other.units, scale: other.scale))
    }

    public static func == (left: Amount, right: Amount) -> Bool { compare(left, right) == 0 }

    public static func < (left: Amount, right: Amount) -> Bool { compare(left, right) < 0 }

    public func hash(into hasher: inout Hasher) {
        let normal = normalized
        hasher.combine(normal.units)
        hasher.combine(normal.scale)
    }

    /// -1, 0 or 1: compares at a common scale, falling back to comparing integer parts and then
    /// fractions when raising one side's scale would overflow.
    static func compare(_ left: Amount, _ right: Amount) -> Int {
        if left.scale == right.scale { return left.units < right.units ? -1 : (left.units == right.units ? 0 : 1) }
        let scale = Swift.max(left.scale, right.scale)
        if let l = left.rescaled(to: scale), let r = right.rescaled(to: scale) {
            return l.units < r.units ? -1 : (l.units == r.units ? 0 : 1)
        }
        // One side does not fit at the other's scale: its integer part is larger than the other
        // side's could be, so the signs and integer parts decide.
        let lw = left.wholeAndFraction, rw = right.wholeAndFraction
        if lw.whole != rw.whole { return lw.whole < rw.whole ? -1 : 1 }
        return compare(Amount(units: lw.fraction, scale: left.scale), Amount(units: rw.fraction, scale: right.scale))
    }

    private var wholeAndFraction: (whole: Int64, fraction: Int64) {
        var divisor: Int64 = 1
        for _ in 0..<scale { divisor *= 10 }
        return (units / divisor, units % divisor)
    }

    // MARK: - Text

    /// The decimal string with exactly ``scale`` digits after the point (`"10.50"`, `"-0.05"`, `"7"`).
    public var description: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        write(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the decimal string's UTF-8 bytes.
    public func write(into bytes: inout [UInt8]) {
        if units < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = units.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes of scratch: 19 digits at most
        var count = 0
        withUnsafeMutableBytes(of: &digits) { raw in
            let buffer = raw.bindMemory(to: UInt8.self)
            repeat {
                buffer[count] = UInt8(magnitude % 10) + UInt8(ascii: "0")
                magnitude /= 10
                count += 1
            } while magnitude > 0
            // At least one digit before the point.
            while count <= scale {
                buffer[count] = UInt8(ascii: "0")
                count += 1
            }
            var position = count
            while position > 0 {
                position -= 1
                bytes.append(buffer[position])
                if position == scale, scale > 0 { bytes.append(UInt8(ascii: ".")) }
            }
        }
    }
}

extension Amount: JSONCodable {
    /// Reads a decimal string; the error says what was expected.
    public init(json: JSONElement) throws(JSONDecodingError) {
        guard json.kind == .string else { throw .expected("a decimal string", found: json) }
        // A decimal string never needs escapes; one that has them is read through `String`.
        let value: Amount?
        if !json.hasEscapes, let content = json.stringContentBytes {
            value = Amount(utf8: content)
        } else {
            value = json.string.flatMap(Amount.init)
        }
        guard let value else {
            throw JSONDecodingError("expected a decimal string such as \"10.00\" with at most 18 significant digits")
        }
        self = value
    }

    /// Writes the decimal string with its scale.
    public func encode(to writer: inout JSONWriter) {
        writer.bytes.append(UInt8(ascii: "\""))
        write(into: &writer.bytes)
        writer.bytes.append(UInt8(ascii: "\""))
    }
}
