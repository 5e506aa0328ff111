import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Validates a card for an existing order without taking money (Orders v2
/// `validate-payment-method`, the document's `validate(orderID:card:)`): the order becomes
/// `APPROVED` with the card, to be executed later (`northstar.executeOrder {orderID}`).
///
/// The document asks whether this endpoint should be exposed (it is marked internal at PayPal);
/// payrpc serves it, since without it a merchant cannot check a card before executing.
public enum Validate: NorthstarMethod {
    public static let name = "northstar.validate"
    public static let traits: MethodTraits = [.mutates]

    /// The order and the card.
    public struct Params: JSONModel, Equatable {
        /// The order's id.
        public var orderID: OrdersV2ID
        /// The card; give it or `nonce`.
        public var card: Card?
        /// A nonce from `northstar.tokenizeCard`, in place of `card`.
        public var nonce: CardNonce?
    }

    public typealias Result = OrderResponse
    public static let errors = [
        NorthstarErrorKind.instrumentDeclined, .cardExpired, .payerActionRequired, .processorError, .orderNotFound,
        .orderAlreadyCaptured, .orderAlreadyAuthorized, .orderExpired, .unprocessable, .nonceInvalid, .notConfigured,
        .backendUnavailable,
    ].map(\.descriptor)
}
