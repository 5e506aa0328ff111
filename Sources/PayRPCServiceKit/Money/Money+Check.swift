import PayRPCJSON

extension Money {
    /// The one check of an amount against its currency, for every service that takes an amount
    /// with a currency code: the code must be an active ISO 4217 currency, and the amount may have
    /// no more decimals than its minor unit (`"10.5"` JPY and `"1.005"` EUR are refused; the
    /// decimals as written count, so `"10.00"` JPY is refused too, as Orders v2 does).
    /// Positivity and a service's own list of currencies are the service's checks.
    /// - Throws: ``MoneyProblem`` saying which rule the pair breaks.
    public static func checked(amount: Amount, currencyCode: String) throws(MoneyProblem) -> Money {
        guard let currency = Currency(code: currencyCode) else { throw .unknownCurrency(currencyCode) }
        guard amount.scale <= currency.minorUnitDigits else { throw .tooManyDecimals(amount, currency) }
        do {
            return try Money(amount: amount, currency: currency)
        } catch {
            throw .tooManyDecimals(amount, currency)
        }
    }
}

/// Why an amount and a currency code are not money.
public enum MoneyProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The code is not an active ISO 4217 currency.
    case unknownCurrency(String)
    /// The amount has more decimals than the currency's minor unit.
    case tooManyDecimals(Amount, Currency)

    public var description: String {
        switch self {
        case .unknownCurrency(let code): "\(code) is not an ISO 4217 currency"
        case .tooManyDecimals(_, let currency): "\(currency.code) takes at most \(currency.minorUnitDigits) decimal(s)"
        }
    }
}
