import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// The card to register (`DPOneClickPaymentCardInfo`). Secrets: the number is kept only masked
/// with a keyed hash, the CVV never.
public struct PaymentCardInfo: JSONModel, Equatable {
    /// The card number, digits only.
    public var cardNumber: CardNumber
    /// The expiry month, 1 to 12.
    /// - Minimum: 1
    /// - Maximum: 12
    public var expirationMonth: Int
    /// The expiry year, four digits.
    /// - Minimum: 2000
    /// - Maximum: 2200
    public var expirationYear: Int
    /// The security code.
    public var cvv: CardSecurityCode
    /// The name on the card.
    /// - MaxLength: 100
    public var cardholderName: String?
}
