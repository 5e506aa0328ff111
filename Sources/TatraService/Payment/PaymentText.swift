#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation

/// The texts of a payment: amounts with two decimals, and the templates of `tatra-sandbox.json`
/// filled in.
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

    /// `template` with `{name}` placeholders replaced by `values`; the result is trimmed.
    static func fill(_ template: String, _ values: [String: String]) -> String {
        var text = template
        for (name, value) in values {
            text = text.replacingOccurrences(of: "{\(name)}", with: value)
        }
        return text.trimmingCharacters(in: .whitespaces)
    }
}
