#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Turns a card into a single-use nonce (the BT SDK's `tokenizeCard:completion:` the document
/// starts from): the merchant's server then pays with the nonce in place of the card.
///
/// The card is checked as `executeOrder` checks it; what its issuer will say is known only when
/// the nonce is used. The nonce lives `nonceLifetimeSeconds` on the profile's sandbox clock and
/// works once.
public enum TokenizeCard: NorthstarMethod {
    public static let name = "northstar.tokenizeCard"
    public static let traits: MethodTraits = [.mutates]

    /// The card.
    public struct Params: JSONModel, Equatable {
        /// The card.
        public var card: Card
    }

    /// The nonce (`BTCardNonce`).
    public struct Result: JSONModel, Equatable {
        /// The nonce, a secret to hand to the merchant's server.
        public var nonce: CardNonce
        /// The card it stands for.
        public var card: CardSummary
        /// Until when it can be used.
        public var expiresAt: Date
    }

    public static let errors = [
        NorthstarErrorKind.cardExpired, .unprocessable, .notConfigured, .processorError, .backendUnavailable,
    ].map(\.descriptor)
}
