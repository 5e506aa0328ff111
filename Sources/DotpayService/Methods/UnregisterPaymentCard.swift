import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Deletes a remembered card (`unregisterPaymentCardWithId:withCompletion:`); when it was the default, the next card becomes the default.
public enum UnregisterPaymentCard: DotpayMethod {
    public static let name = "dotpay.unregisterPaymentCard"
    public static let traits: MethodTraits = [.mutates, .destructive]

    /// The params.
    public struct Params: JSONModel, Equatable {
        /// The card's id.
        /// - MinLength: 1
        /// - MaxLength: 128
        public var creditCardId: String
    }

    public typealias Result = NoResult
    public static let errors = [DotpayErrorKind.cardNotFound.descriptor]
    public static var notifications: [any RPCNotification.Type] { [DidChangeDefaultOneClickPaymentCard.self] }
}
