import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// The default card of 1Click payments (`DPOneClickManager defaultOneClickPaymentCard`); `card`
/// is absent when there is none.
public enum DefaultOneClickPaymentCard: DotpayMethod {
    public static let name = "dotpay.defaultOneClickPaymentCard"
    public typealias Params = NoParams

    /// The default card, if any.
    public struct Result: JSONModel, Equatable {
        /// The card.
        public var card: OneClickPaymentCard?
    }
}
