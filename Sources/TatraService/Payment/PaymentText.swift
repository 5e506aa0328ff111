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
    /// nil otherwise. Exact: no binary float is involved.
    static func exactCents(_ amount: Decimal) -> Int64? {
        var scaled = amount * 100
        var rounded = Decimal()
        NSDecimalRound(&rounded, &scaled, 0, .plain)
        guard rounded == scaled, rounded.magnitude < 1_000_000_000_000_000 else { return nil }
        return NSDecimalNumber(decimal: rounded).int64Value
    }

    /// `cents` as text with two decimals (`1250` → `12.50`).
    static func format(cents: Int64) -> String {
        let whole = cents.magnitude / 100, fraction = cents.magnitude % 100
        return (cents < 0 ? "-" : "") + String(whole) + (fraction < 10 ? ".0" : ".") + String(fraction)
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
