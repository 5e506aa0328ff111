#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation

/// Amounts as integer cents and as two-decimal text.
///
/// `tatra.executePayment` turns the amount into cents once and then works with integers: every
/// `Decimal` comparison costs about a microsecond on Linux (it normalizes both sides), and
/// `Decimal.description` about three.
enum PaymentText {
    /// The amount in cents when it has at most two decimals (and fewer than 16 digits of cents);
    /// nil otherwise. Exact: no binary float is involved in the result.
    ///
    /// Read from the decimal's own parts, significand × 10^exponent, with integer arithmetic:
    /// `amount * 100`, rounding and comparing `Decimal`s cost about 1.2 µs on Linux.
    static func exactCents(_ amount: Decimal) -> Int64? {
        guard let (significand, exponent, negative) = DecimalParts.read(amount) else { return nil }
        let limit: UInt64 = 1_000_000_000_000_000
        var cents = significand
        let shift = exponent + 2
        if shift >= 0 {
            for _ in 0..<shift {
                guard cents < limit else { return nil }
                cents *= 10
            }
        } else {
            for _ in 0 ..< -shift {
                guard cents % 10 == 0 else { return nil }
                cents /= 10
            }
        }
        guard cents < limit else { return nil }
        return negative ? -Int64(cents) : Int64(cents)
    }

    /// `cents` as a `Decimal` (`1250` → `12.5`), exactly.
    static func decimal(cents: Int64) -> Decimal {
        Decimal(sign: cents < 0 ? .minus : .plus, exponent: -2, significand: Decimal(cents.magnitude))
    }

    /// `cents` as text with two decimals (`1250` → `12.50`).
    static func format(cents: Int64) -> String {
        // Digits written backwards into the string's own buffer: no intermediate strings.
        String(unsafeUninitializedCapacity: 24) { buffer in
            var magnitude = cents.magnitude
            var position = buffer.count
            func put(_ byte: UInt8) {
                position -= 1
                buffer[position] = byte
            }
            for index in 0..<2 {
                put(UInt8(ascii: "0") + UInt8(magnitude % 10))
                magnitude /= 10
                if index == 1 { put(UInt8(ascii: ".")) }
            }
            repeat {
                put(UInt8(ascii: "0") + UInt8(magnitude % 10))
                magnitude /= 10
            } while magnitude > 0
            if cents < 0 { put(UInt8(ascii: "-")) }
            let length = buffer.count - position
            for index in 0..<length { buffer[index] = buffer[position + index] }
            return length
        }
    }

    /// `amount` with exactly two decimals (`12.5` → `12.50`), rounded half up.
    static func amount(_ amount: Decimal) -> String {
        var scaled = amount * 100
        var cents = Decimal()
        NSDecimalRound(&cents, &scaled, 0, .plain)
        guard cents.magnitude < 1_000_000_000_000_000 else { return wide(cents) }
        return format(cents: NSDecimalNumber(decimal: cents).int64Value)
    }

    /// Amounts beyond 10^15 cents, through their description.
    private static func wide(_ cents: Decimal) -> String {
        let parts = (cents / 100).description.split(separator: ".", maxSplits: 1)
        var fraction = parts.count > 1 ? String(parts[1]) : ""
        while fraction.count < 2 { fraction += "0" }
        return String(parts[0]) + "." + fraction
    }
}

/// A `Decimal`'s significand (when it fits 64 bits), exponent and sign, read without Foundation's
/// arithmetic.
///
/// Foundation offers no integer view of a `Decimal` on Linux: the public way,
/// `NSDecimalNumber(decimal: amount.significand).int64Value`, allocates an object and cost about
/// 570 instructions of the 20,000 a `tatra.executePayment` takes. A `Decimal` holds the fields of
/// the C struct `NSDecimal` in 20 bytes: a 32-bit word with the exponent in its low byte and, in
/// the next, the length in 16-bit words (high four bits) and the sign (the bit below), as
/// swift-foundation packs them; then the mantissa as eight 16-bit words, least significant first.
/// That layout is not promised, so it is checked once against values made through the public
/// API; where it does not hold, the public way is used.
enum DecimalParts {
    /// Whether `Decimal` has the `NSDecimal` layout here.
    static let layoutIsKnown: Bool = {
        let samples: [Decimal] = [
            Decimal(sign: .plus, exponent: -2, significand: 1250),
            Decimal(sign: .minus, exponent: 3, significand: 70_000),
            Decimal(sign: .plus, exponent: -5, significand: Decimal(UInt64(1) << 60 + 7)),
            Decimal(sign: .minus, exponent: -1, significand: Decimal(UInt64(9_999_999_999_999_999_999))),
            Decimal(),
        ]
        return MemoryLayout<Decimal>.size == 20 && samples.allSatisfy { sample in
            guard let parts = fromLayout(sample) else { return false }
            let rebuilt = Decimal(sign: parts.negative ? .minus : .plus, exponent: parts.exponent,
                                  significand: Decimal(parts.significand))
            return rebuilt == sample
        }
    }()

    /// The significand, exponent and sign of `value`; nil when the significand is 10^19 or more.
    static func read(_ value: Decimal) -> (significand: UInt64, exponent: Int, negative: Bool)? {
        layoutIsKnown ? fromLayout(value) : throughFoundation(value)
    }

    /// ``read(_:)`` the public way (used where the layout is not the known one).
    static func throughFoundation(_ value: Decimal) -> (significand: UInt64, exponent: Int, negative: Bool)? {
        let significand = NSDecimalNumber(decimal: value.significand)
        // The double only bounds the significand (so that uint64Value is exact): 10^19 < 2^64.
        guard significand.doubleValue < 1e19 else { return nil }
        return (significand.uint64Value, value.exponent, value.sign == .minus)
    }

    /// ``read(_:)`` from the bytes of `value`.
    static func fromLayout(_ value: Decimal) -> (significand: UInt64, exponent: Int, negative: Bool)? {
        withUnsafeBytes(of: value) { bytes in
            let flags = bytes.loadUnaligned(as: UInt32.self)
            let exponent = Int(Int8(truncatingIfNeeded: flags))
            let length = Int(flags >> 12) & 0x0F
            let negative = flags >> 11 & 1 == 1
            guard length <= 4 else { return nil }
            var significand: UInt64 = 0
            for word in stride(from: length - 1, through: 0, by: -1) {
                significand = significand << 16 | UInt64(bytes.loadUnaligned(fromByteOffset: 4 + 2 * word, as: UInt16.self))
            }
            // The same bound as the public way's: ten to the nineteenth.
            guard significand < 10_000_000_000_000_000_000 else { return nil }
            return (significand, exponent, negative)
        }
    }
}
