import PayRPCJSON

/// How the decimals of an amount count against its currency's minor unit.
public enum DecimalsRule: Sendable, Equatable {
    /// The decimals as written: `"10.00"` JPY is refused (Orders v2's `DECIMAL_PRECISION`, Dotpay).
    case asWritten
    /// The number's decimals: trailing zeros are free, `"12.500"` EUR is 1250 cents (Tatra's
    /// `executePayment`, the journal's `"10000.00"` yen).
    case numeric
}

extension Money {
    /// The one check of an amount against its currency's minor unit, for every service: the amount
    /// in minor units (cents, grosze, yen), or nil when it has more decimals than the currency's
    /// minor unit (counted by `rule`) or does not fit 64 bits of minor units. Positivity, limits and
    /// a service's own list of currencies are the service's rules, read from the result.
    ///
    /// Where an amount travels with its currency in the five services, and how it is checked
    /// (every decimal-against-currency check of a service is this function, directly or through
    /// ``checked(amount:in:rule:)``; where the wire has the amount and its currency side by side,
    /// the model is ``CarriesMoney`` and reaches ``Money`` through its ``CarriesMoney/money(rule:)``):
    ///
    /// | service | where amount and currency travel | check |
    /// |---|---|---|
    /// | tatra | `tatra.executePayment {amount}`, `SetupData` limits, `BalanceData.balance`, the magic amounts, the pending payment; the currency is not on the wire but the sandbox file's `/currency` (EUR), refused at load when unknown or without a two-digit minor unit | `TatraSandboxData.cents(_:)`: this function, `.numeric`, once per `executePayment` (then integer cents) and once per limit and magic amount at load |
    /// | pbba | `pbba.submitPaymentRequest` and `sandbox.pbba.registerExternalRequest` `{amount, currency}` as two fields, the stored request, `PaymentStatusInfo`, the magic amounts `99.91`/`99.92` | `PBBAService.moneyViolations(_:)`: the params' ``CarriesMoney/money(rule:)``, `.numeric` (`"10.005"` GBP, `"10.5"` JPY and `"XYZ"` are -32602 at `/amount` or `/currency`), after the amount is checked to be above zero |
    /// | journal | `journal.pay {amount}`, `JournalEntry.amount`, the hand-off URL's `Amount=`, the Web API's bodies: always yen | `JournalService.wholeYen`: this function with JPY, `.numeric` (`"10000.00"` is 10000 yen); a callback's `Amount` is stored as the callback wrote it |
    /// | northstar | `OrderMoney {currencyCode, value}` nested in purchase units (`AmountWithBreakdown` and its breakdown), `northstar.captureAuthorization {amount}`, the stored order's total and the authorization's captured and remaining amounts; Orders v2's `money` on the HTTP edge | `problems(inMoney:)`: ``CarriesMoney/money(rule:)`` of `OrderMoney` and `AmountWithBreakdown`, `.asWritten` (`DECIMAL_PRECISION`, `CURRENCY_NOT_SUPPORTED`), for every money value of a request; sums and captures compare codes first |
    /// | dotpay | `PaymentInfo {amount, currency}` (two fields, default PLN) of `getChannelList`, `pay`, `fastPayment`, `oneClickPayment`; `sandbox.dotpay.refund {amount}` in the payment's currency; `PaymentSummary`, the stored payment, URLC amounts, Masterpass questions, channel limits, magic amounts | `checkedMoney(_:at:)` gives one ``Money`` (`PaymentInfo`'s ``CarriesMoney/money(rule:)``, `.asWritten`) that the channel's currencies and limits read; the refund and URLC texts go through the same call |
    @inlinable
    public static func minorUnits(of amount: Amount, in currency: Currency, rule: DecimalsRule) -> Int64? {
        if rule == .asWritten, amount.scale > currency.minorUnitDigits { return nil }
        return amount.minorUnits(scale: currency.minorUnitDigits)
    }

    /// An amount and a currency as money, checked by ``minorUnits(of:in:rule:)``.
    /// - Throws: ``MoneyProblem/tooManyDecimals(_:_:)`` when the check refuses the amount.
    public static func checked(amount: Amount, in currency: Currency, rule: DecimalsRule = .asWritten) throws(MoneyProblem)
        -> Money
    {
        guard minorUnits(of: amount, in: currency, rule: rule) != nil else { throw .tooManyDecimals(amount, currency) }
        do {
            return try Money(amount: amount, currency: currency)
        } catch {
            throw .tooManyDecimals(amount, currency)
        }
    }

    /// An amount and a currency code as money, for every service that takes a code: the code must
    /// be an active ISO 4217 currency, and the amount passes ``minorUnits(of:in:rule:)`` (as
    /// written by default: `"10.5"` JPY, `"1.005"` EUR and `"10.00"` JPY are refused, as Orders v2
    /// does).
    /// - Throws: ``MoneyProblem`` saying which rule the pair breaks.
    public static func checked(amount: Amount, currencyCode: String, rule: DecimalsRule = .asWritten) throws(MoneyProblem)
        -> Money
    {
        guard let currency = Currency(code: currencyCode) else { throw .unknownCurrency(currencyCode) }
        return try checked(amount: amount, in: currency, rule: rule)
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
