import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Sandbox: the Consumer taps the retry button of an error pop-up; the connection that showed it
/// gets `pbba.popupRetryPaymentRequest` and the pop-up is dismissed.
///
/// Error pop-ups only: on a payment pop-up it fails with `wrongPopupKind`.
public enum TapTryAgain: PBBAMethod {
    public static let name = "sandbox.pbba.tapTryAgain"
    public static let traits: MethodTraits = [.runsInline, .mutates, .sandboxOnly]
    public typealias Params = PopupReference
    public typealias Result = NoResult
    public static let errors = [PBBAErrorKind.popupNotFound.descriptor, PBBAErrorKind.wrongPopupKind.descriptor]
    public static var notifications: [any RPCNotification.Type] { [PopupRetryPaymentRequest.self] }
}
