import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// The default 1Click card changed (`oneClickManager:didChangeDefaultOneClickPaymentCard:`),
/// pushed to every connection of the profile. The default card is not the card used last.
public enum DidChangeDefaultOneClickPaymentCard: RPCNotification {
    public static let name = "dotpay.didChangeDefaultOneClickPaymentCard"

    /// The new default card; absent when no card is left.
    public struct Payload: JSONModel, Equatable {
        /// The new default card.
        public var card: OneClickPaymentCard?
    }
}
