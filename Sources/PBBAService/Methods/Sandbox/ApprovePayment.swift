import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Sandbox: the bank app approves a payment request, by secureToken (same device, M-COMM) or by
/// code (another device, E-COMM); the connection that showed its pop-up gets
/// `pbba.paymentStatusChanged` completed.
///
/// Callable from any connection (the "other device"). Fails with `requestExpired` after the
/// retrieval period (the showing connection then gets `pbba.popupDidExpire`), and with
/// `paymentAlreadyFinished` once approved or declined.
public enum ApprovePayment: PBBAMethod {
    public static let name = "sandbox.pbba.approvePayment"
    public static let traits: MethodTraits = [.mutates, .sandboxOnly]
    public typealias Params = PaymentTarget
    public typealias Result = PaymentStatusInfo
    public static var errors: [RPCErrorDescriptor] { PBBAErrorKind.bankDecision }
    public static var notifications: [any RPCNotification.Type] { [PaymentStatusChanged.self, PopupDidExpire.self] }
}
