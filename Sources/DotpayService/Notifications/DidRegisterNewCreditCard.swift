import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// A card was registered (`oneClickManager:didRegisterNewCreditCard:`), pushed to every
/// connection of the profile so the app can refresh its list of cards.
public enum DidRegisterNewCreditCard: RPCNotification {
    public static let name = "dotpay.didRegisterNewCreditCard"

    /// `DPOneClickCardRegistrationData`.
    public struct Payload: JSONModel, Equatable {
        /// The card registered.
        public var card: OneClickPaymentCard
    }
}
