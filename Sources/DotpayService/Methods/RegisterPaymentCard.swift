import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Registers a card for 1Click (`registerPaymentCardWithCardInfo:withCompletion:`).
///
/// The number must pass Luhn; the sandbox refuses `4000000000000002`. The first card becomes the
/// default. While an external customer id is set (`configureWithExternalCards`), the card is
/// registered in that customer's context. Pushes `dotpay.didRegisterNewCreditCard` (and, for
/// the first card, `didChangeDefaultOneClickPaymentCard`) to every connection of the profile.
/// The number is kept only masked with a keyed hash; the CVV is checked and forgotten.
public enum RegisterPaymentCard: DotpayMethod {
    public static let name = "dotpay.registerPaymentCard"
    public static let traits: MethodTraits = [.mutates]

    /// The card.
    public struct Params: JSONModel, Equatable {
        /// The card to register.
        public var cardInfo: PaymentCardInfo
    }

    public typealias Result = OneClickPaymentCard
    public static let errors = [DotpayErrorKind.cardRefused, .oneClickDisabled].map(\.descriptor)
    public static var notifications: [any RPCNotification.Type] {
        [DidRegisterNewCreditCard.self, DidChangeDefaultOneClickPaymentCard.self]
    }
}
