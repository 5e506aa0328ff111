import PayRPCJSON
import PayRPCSchema

/// What an answer says about the card used: never its number (Orders v2 `payment_source.card`
/// in a response).
public struct CardSummary: JSONModel, Equatable {
    /// The card's last four digits.
    public var lastDigits: CardLastDigits
    /// The card's brand.
    public var brand: CardBrand
    /// The expiry month, `YYYY-MM`; absent when the Orders v2 API's answer leaves it out.
    public var expiry: String?
}
