import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Sandbox: the Consumer taps the close button at the top right of a pop-up; the connection that
/// showed it gets `pbba.popupDidCloseByUser`.
///
/// Callable from any connection. A payment pop-up's request stays in progress and watched.
public enum ClosePopup: PBBAMethod {
    public static let name = "sandbox.pbba.closePopup"
    public static let traits: MethodTraits = [.runsInline, .mutates, .sandboxOnly]
    public typealias Params = PopupReference
    public typealias Result = NoResult
    public static let errors = [PBBAErrorKind.popupNotFound.descriptor]
    public static var notifications: [any RPCNotification.Type] { [PopupDidCloseByUser.self] }
}
