import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Uses cards the app's backend remembers for its user
/// (`configureWithExternalCards:forCustomerId:`, *dane karty dostarczane z zewnątrz*).
///
/// Replaces every external card given before; cards registered from now on belong to
/// `customerId` (`credit_card_customer_id`). An empty list sets the customer without cards.
public enum ConfigureWithExternalCards: DotpayMethod {
    public static let name = "dotpay.configureWithExternalCards"
    public static let traits: MethodTraits = [.mutates]

    /// The cards and their customer.
    public struct Params: JSONModel, Equatable {
        /// The customer's cards.
        /// - MaxItems: 100
        public var externalCards: [ExternalPaymentCard]
        /// The customer's id at Dotpay.
        /// - MinLength: 1
        /// - MaxLength: 128
        public var customerId: String
    }

    /// The cards now remembered.
    public typealias Result = [OneClickPaymentCard]
    public static var notifications: [any RPCNotification.Type] { [DidChangeDefaultOneClickPaymentCard.self] }
}
