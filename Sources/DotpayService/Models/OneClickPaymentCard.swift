import PayRPCJSON
import PayRPCSchema

/// A remembered card (`DPOneClickPaymentCard`, and `DPOneClickExternalPaymentCard` for cards
/// the app's backend provides): never its number, only its mask.
public struct OneClickPaymentCard: JSONModel, Equatable {
    /// The card's id (`creditCardId`).
    /// - MinLength: 1
    public var creditCardId: String
    /// The masked number (`maskedNumber`), first six and last four digits. Kept to its last four
    /// wherever it is recorded: an external card's comes from the app's backend unchecked.
    /// - Sensitive: last4
    public var maskedNumber: String
    /// The name shown to the buyer (`brandName`).
    public var brandName: String
    /// The card type (`brandCodename`): `visa`, `mastercard`, `maestro`, ...
    public var brandCodename: String
    /// The card's logo (`logoUrlPath`).
    /// - Format: uri
    public var logoUrlPath: String
    /// Whether it is the default card of 1Click payments.
    public var isDefault: Bool
    /// Whether the app's backend provided it (`configureWithExternalCards`) or it was registered
    /// in the context of an external customer id.
    public var external: Bool
    /// The external customer id (`credit_card_customer_id`) it belongs to.
    public var customerId: String?
}
