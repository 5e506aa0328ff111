import PayRPCJSON
import PayRPCServiceKit

/// Amounts as integer cents and as two-decimal text.
///
/// `tatra.executePayment` turns the amount into cents once (``TatraSandboxData/cents(_:)``, the
/// kit's money check against the sandbox's currency) and then works with integers.
enum PaymentText {
    /// `cents` as an exact amount with two decimals (`1250` → `12.50`).
    static func amount(cents: Int64) -> Amount { Amount(units: cents, scale: 2) }

    /// `cents` as text with two decimals (`1250` → `12.50`).
    static func format(cents: Int64) -> String { MinorUnitsText(cents).description }

    /// `amount` with exactly two decimals (`12.5` → `12.50`); the amounts given here (limits,
    /// held payments) have at most two by construction, else the text keeps the amount's own.
    static func amount(_ amount: Amount) -> String { (amount.rescaled(to: 2) ?? amount).description }
}
