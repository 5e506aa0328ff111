import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Opens the Pay by Bank app enabled bank app for a payment request through `zapp://<secureToken>`,
/// outside the pop-up.
///
/// Document section 4.4.2, Table 6, `[PBBAAppUtils openBankingApp:secureToken]`. It does not set
/// the remembered flag: only the Consumer's tap on the M-COMM pop-up's "Open banking app" button
/// does (section 3.5; `sandbox.pbba.tapOpenBankingApp`). Any well-formed secureToken is opened;
/// for one of payrpc's own requests it must still be in progress, and when no connection follows
/// the request yet, the caller receives its `pbba.paymentStatusChanged`. With no bank app
/// installed it fails with `noBankAppInstalled` and clears the flag.
public enum OpenBankingApp: PBBAMethod {
    public static let name = "pbba.openBankingApp"
    public static let traits: MethodTraits = [.mutates]

    /// Table 6 of the document.
    public struct Params: JSONModel, Equatable {
        /// The unique token that identifies the payment request (Table 6 `secureToken`).
        public var secureToken: SecureToken
    }

    public typealias Result = BankAppLaunch
    public static let errors = [
        PBBAErrorKind.noBankAppInstalled.descriptor,
        PBBAErrorKind.requestExpired.descriptor, PBBAErrorKind.paymentAlreadyFinished.descriptor,
    ]
    public static var notifications: [any RPCNotification.Type] { [PaymentStatusChanged.self] }
}
