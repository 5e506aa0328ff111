import PayRPCJSON
import PayRPCSchema

/// A bank app's decision on a payment request, as the store carries it from the instance where it
/// was made (`sandbox.pbba.approvePayment` through any gateway) to every instance, whichever of
/// them holds the connection that follows the request (``PBBAStateBook/onDecision(_:)``).
struct PaymentDecision: JSONModel, Equatable {
    /// The request's store key (the keyed hash of its secureToken; never the token).
    var requestKey: String
    /// What was decided.
    var status: PaymentStatus
}
