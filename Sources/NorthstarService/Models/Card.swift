import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// A payment card as the buyer typed it (`Card` of the SDK, Orders v2 `payment_source.card`).
///
/// The number and the security code are secrets: payrpc checks them and keeps only the brand,
/// the last four digits and a keyed hash; they never reach a log, the store or an error message.
public struct Card: JSONModel, Equatable {
    /// The card number, digits only, 12 to 19 of them (checked by Luhn and by the brand's lengths).
    /// - Example: "4032036247327321"
    public var number: CardNumber
    /// The expiry month, `YYYY-MM`; the card is valid through the end of that month on the
    /// profile's sandbox clock.
    /// - Example: "2030-11"
    public var expiry: CardExpiry
    /// The security code (CVV/CVC): four digits for American Express, three for the others.
    public var securityCode: CardSecurityCode?
    /// The name on the card.
    /// - MaxLength: 300
    public var cardholderName: String?
    /// The billing address.
    public var billingAddress: BillingAddress?
}

/// A card's billing address (Orders v2 `address_portable`).
public struct BillingAddress: JSONModel, Equatable {
    /// Street and number.
    /// - MaxLength: 300
    public var addressLine1: String?
    /// The rest of the street address.
    /// - MaxLength: 300
    public var addressLine2: String?
    /// Region, state or province.
    /// - MaxLength: 300
    public var adminArea1: String?
    /// City or town.
    /// - MaxLength: 120
    public var adminArea2: String?
    /// The postal code.
    /// - MaxLength: 60
    public var postalCode: String?
    /// The ISO 3166-1 country code.
    public var countryCode: CountryCode
}
