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
    /// `amount * 100`, rounding and comparing `Decimal`s cost about 1.2 µs on Linux, this about
    /// 0.1 µs (the conversion of the significand to an integer).
    static func exactCents(_ amount: Decimal) -> Int64? {
        let limit: Int64 = 1_000_000_000_000_000
        let significand = NSDecimalNumber(decimal: amount.significand)
        // The double only bounds the significand (so that int64Value is exact): 10^16 < 2^63.
        guard significand.doubleValue < 1e16 else { return nil }
        var cents = significand.int64Value
        let shift = amount.exponent + 2
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
        return amount.sign == .minus ? -cents : cents
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
