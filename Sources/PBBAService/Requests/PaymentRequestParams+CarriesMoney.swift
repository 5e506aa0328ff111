import PayRPCCore
import PayRPCJSON
import PayRPCServiceKit

/// A payment request's `{amount, currency}` reaches the kit's `Money` through the kit's one check.
extension SubmitPaymentRequest.Params: CarriesMoney {
    /// `amount`.
    public var moneyAmount: Amount { amount }
    /// `currency`.
    public var moneyCurrencyCode: CurrencyCode { currency }
}

/// An external request's `{amount, currency}`, the same way.
extension RegisterExternalRequest.Params: CarriesMoney {
    /// `amount`.
    public var moneyAmount: Amount { amount }
    /// `currency`.
    public var moneyCurrencyCode: CurrencyCode { currency }
}
