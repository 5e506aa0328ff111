import PayRPCCore
import PayRPCJSON

/// A wire model that carries an amount with its currency code: Orders v2's `{currency_code, value}`
/// (Northstar's `OrderMoney` and `AmountWithBreakdown`), PBBA's `{amount, currency}` params, Dotpay's
/// `PaymentInfo`. The pair reaches the kit's ``Money`` here and only here, through the one check
/// (``Money/checked(amount:currencyCode:rule:)``), so that no service reads the two fields into a
/// `Money` by hand; what a service answers for a ``MoneyProblem`` (-32602 at the field, Orders v2's
/// 422 with every problem in `details`) stays the service's.
public protocol CarriesMoney {
    /// The amount, as the wire wrote it.
    var moneyAmount: Amount { get }
    /// The currency code, as the wire wrote it (not checked yet).
    var moneyCurrencyCode: CurrencyCode { get }
}

extension CarriesMoney {
    /// The amount and its currency as money, the amount checked against the currency's minor unit
    /// as `rule` counts its decimals.
    /// - Throws: ``MoneyProblem``: the code is not an active ISO 4217 currency, or the amount has
    ///   more decimals than the currency's minor unit.
    public func money(rule: DecimalsRule = .asWritten) throws(MoneyProblem) -> Money {
        try Money.checked(amount: moneyAmount, currencyCode: moneyCurrencyCode, rule: rule)
    }
}
