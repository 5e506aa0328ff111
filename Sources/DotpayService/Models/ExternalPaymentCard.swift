import PayRPCJSON
import PayRPCSchema

/// A card the app's backend remembers for its user (`DPOneClickExternalPaymentCard`, *dane
/// karty dostarczane z zewnątrz*, "card data supplied from outside").
public struct ExternalPaymentCard: JSONModel, Equatable {
    /// The masked number. Kept to its last four wherever it is recorded: the app's backend
    /// supplies it, and nothing checks that it is masked.
    /// - MinLength: 4
    /// - MaxLength: 30
    /// - Sensitive: last4
    public var maskedNumber: String
    /// The card's id.
    /// - MinLength: 1
    /// - MaxLength: 128
    public var creditCardId: String
    /// The name shown to the buyer.
    /// - MaxLength: 64
    public var brandName: String
    /// The card type.
    /// - MaxLength: 32
    public var brandCodename: String
    /// The card's logo.
    /// - Format: uri
    public var logoUrlPath: String
}
