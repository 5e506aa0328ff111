import PayRPCCore
import PayRPCJSON
import PayRPCServiceKit

/// A payment's `{amount, currency}` reaches the kit's `Money` through the kit's one check.
extension PaymentInfo: CarriesMoney {
    /// `amount`.
    public var moneyAmount: Amount { amount }
    /// `currency`.
    public var moneyCurrencyCode: CurrencyCode { currency }
}
