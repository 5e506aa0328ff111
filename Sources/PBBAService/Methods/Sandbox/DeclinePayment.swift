import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Sandbox: the Consumer cancels the payment in the bank app, by secureToken or by code; the
/// connection that showed its pop-up gets `pbba.paymentStatusChanged` declined.
///
/// Callable from any connection. Same errors as `sandbox.pbba.approvePayment`.
public enum DeclinePayment: PBBAMethod {
    public static let name = "sandbox.pbba.declinePayment"
    public static let traits: MethodTraits = [.mutates, .sandboxOnly]
    public typealias Params = PaymentTarget
    public typealias Result = PaymentStatusInfo
    public static var errors: [RPCErrorDescriptor] { PBBAErrorKind.bankDecision }
    public static var notifications: [any RPCNotification.Type] { [PaymentStatusChanged.self, PopupDidExpire.self] }
}
