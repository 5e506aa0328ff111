import PayRPCCore
import PayRPCJSON
import PayRPCServiceKit

/// Orders v2's money reaches the kit's `Money` through the kit's one check.
extension OrderMoney: CarriesMoney {
    /// `value`.
    public var moneyAmount: Amount { value }
    /// `currency_code`.
    public var moneyCurrencyCode: CurrencyCode { currencyCode }
}

/// A purchase unit's amount is money too (its breakdown's parts are ``OrderMoney``).
extension AmountWithBreakdown: CarriesMoney {
    /// `value`.
    public var moneyAmount: Amount { value }
    /// `currency_code`.
    public var moneyCurrencyCode: CurrencyCode { currencyCode }
}
