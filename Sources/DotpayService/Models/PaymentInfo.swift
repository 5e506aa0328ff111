import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// A payment to make (`DPPaymentInfo`, Polish *opis płatności*, "payment description").
public struct PaymentInfo: JSONModel, Equatable {
    /// The merchant's Dotpay account id (*ID konta Sprzedawcy*).
    /// - Example: "10000"
    public var merchantID: MerchantID
    /// The amount (`NSDecimalNumber`), a decimal string in `currency`.
    /// - Example: "100.00"
    public var amount: Amount
    /// The payment's title (*tytuł/opis płatności*).
    /// - MinLength: 1
    /// - MaxLength: 255
    public var textDescription: String
    /// The ISO 4217 code of `amount` (`DPCurrency`); default PLN. One of `dotpay.getCurrencyList`.
    public var currency: CurrencyCode = "PLN"
    /// Who pays.
    public var senderInformation: SenderInformation?
    /// Extra parameters passed through the payment (`NSDictionary`), such as a channel's own
    /// parameters for `dotpay.fastPayment`.
    public var additionalInformation: [String: String]?
    /// The shop's id of the payment, sent back in the confirmation (*parametr identyfikujący
    /// daną płatność*); generated when absent, and must be unique for the history to work.
    /// - MinLength: 1
    /// - MaxLength: 128
    public var control: String?
    /// Where the shop receives the payment's confirmation (`urlc`).
    /// - Format: uri
    public var urlc: String?
}
