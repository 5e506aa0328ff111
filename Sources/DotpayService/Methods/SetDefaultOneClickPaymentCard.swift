import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Makes a card the default of 1Click payments (`setDefaultOneClickPaymentCardWithId:`); pushes `dotpay.didChangeDefaultOneClickPaymentCard` to every connection of the profile.
public enum SetDefaultOneClickPaymentCard: DotpayMethod {
    public static let name = "dotpay.setDefaultOneClickPaymentCard"
    public static let traits: MethodTraits = [.mutates]

    /// The params.
    public struct Params: JSONModel, Equatable {
        /// The card's id.
        /// - MinLength: 1
        /// - MaxLength: 128
        public var creditCardId: String
    }

    public typealias Result = OneClickPaymentCard
    public static let errors = [DotpayErrorKind.cardNotFound.descriptor]
    public static var notifications: [any RPCNotification.Type] { [DidChangeDefaultOneClickPaymentCard.self] }
}
