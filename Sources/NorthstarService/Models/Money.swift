import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// An amount in a currency, as Orders v2 writes one (`{"currency_code": "USD", "value": "10.00"}`)
/// in the SDK's spelling: `Amount(currencyCode:, value:)`.
public struct OrderMoney: JSONModel, Equatable {
    /// The ISO 4217 code. An unknown code is `CURRENCY_NOT_SUPPORTED` (checked against the ISO
    /// table, so the answer is an Orders v2 error rather than a schema violation).
    /// - Example: "USD"
    public var currencyCode: CurrencyCode
    /// The amount, a decimal string with at most the currency's number of decimals (JPY none,
    /// USD two, KWD three), never a JSON number.
    /// - Example: "10.00"
    public var value: Amount
}
