import PayRPCJSON
import PayRPCSchema

/// The amount limits of a payment as iOS nests them: `PKSetupData.makePaymentValues`, a
/// `PKAmountValues`. The same limits as the setup's flat `minTransactionAmount` and
/// `maxTransactionAmount` (Android `TBSetupData`).
public struct AmountValues: JSONModel, Equatable {
    /// The smallest amount a payment may have, inclusive. iOS `PKAmountValues.minValue`.
    /// - Example: "0.01"
    public var minValue: Amount
    /// The largest amount a payment may have, inclusive. iOS `PKAmountValues.maxValue`.
    /// - Example: "5000.00"
    public var maxValue: Amount
}
