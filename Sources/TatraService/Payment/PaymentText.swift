#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation

/// Amounts in payment texts: two decimals.
enum PaymentText {
    /// `amount` with exactly two decimals (`12.5` → `12.50`), rounded half up.
    ///
    /// Through integer cents: `Decimal.description` costs about 3 µs on Linux, three times the
    /// whole conversion, and this runs on every `tatra.executePayment`.
    static func amount(_ amount: Decimal) -> String {
        var scaled = amount * 100
        var cents = Decimal()
        NSDecimalRound(&cents, &scaled, 0, .plain)
        guard cents.magnitude < 1_000_000_000_000_000 else { return wide(cents) }
        let value = NSDecimalNumber(decimal: cents).int64Value
        let whole = value.magnitude / 100, fraction = value.magnitude % 100
        return (value < 0 ? "-" : "") + String(whole) + (fraction < 10 ? ".0" : ".") + String(fraction)
    }

    /// Amounts beyond 10^15 cents, through their description.
    private static func wide(_ cents: Decimal) -> String {
        var text = (cents / 100).description
        let parts = text.split(separator: ".", maxSplits: 1)
        var fraction = parts.count > 1 ? String(parts[1]) : ""
        while fraction.count < 2 { fraction += "0" }
        text = String(parts[0]) + "." + fraction
        return text
    }

    /// Whether `amount` has at most two decimals.
    static func hasAtMostTwoDecimals(_ amount: Decimal) -> Bool {
        var value = amount
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 2, .plain)
        return rounded == amount
    }
}
