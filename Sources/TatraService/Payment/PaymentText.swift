#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation

/// Amounts in payment texts: two decimals.
enum PaymentText {
    /// `amount` with exactly two decimals (`12.5` → `12.50`), rounded half up.
    static func amount(_ amount: Decimal) -> String {
        var value = amount
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 2, .plain)
        let text = rounded.description
        let parts = text.split(separator: ".", maxSplits: 1)
        let whole = parts.first.map(String.init) ?? "0"
        var fraction = parts.count > 1 ? String(parts[1]) : ""
        while fraction.count < 2 { fraction += "0" }
        return whole + "." + fraction
    }

    /// Whether `amount` has at most two decimals.
    static func hasAtMostTwoDecimals(_ amount: Decimal) -> Bool {
        var value = amount
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 2, .plain)
        return rounded == amount
    }
}
