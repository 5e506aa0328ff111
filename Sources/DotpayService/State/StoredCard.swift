import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// A remembered card (namespace `dotpay.cards`, key its id): the card as shown, and the keyed
/// hash of its number when it was registered here (never the number, never the CVV).
struct StoredCard: JSONModel, KeyedDocument, Equatable {
    static let namespace = "dotpay.cards"

    var card: OneClickPaymentCard
    var numberHash: String?
    var registeredAt: Date
}
