import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// A nonce from `northstar.tokenizeCard` (namespace `northstar.nonces`, key the keyed hash of the
/// nonce, which is a secret): the card's summary, its number's keyed hash and outcome, and
/// whether it was used.
struct StoredNonce: JSONModel, KeyedDocument, Equatable {
    static let namespace = "northstar.nonces"

    var card: CardSummary
    var cardHash: String
    var outcome: CardOutcome
    var expiresAt: Date
    var used: Bool
}
