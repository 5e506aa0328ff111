import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Opens the Pay by Bank app enabled bank app for a payment request through `zapp://<secureToken>`,
/// and remembers the choice.
///
/// Document section 4.4.2, Table 6, `[PBBAAppUtils openBankingApp:secureToken]`; also what the
/// M-COMM pop-up's "Open banking app" button does. Sets the remembered flag
/// (`com.zapp.bankapp.remembered`), so the next `pbba.showPBBAPopup` opens the bank app at once.
/// With no bank app installed it fails with `noBankAppInstalled` and clears the flag. When no
/// connection follows the request yet, the caller receives its `pbba.paymentStatusChanged`.
public enum OpenBankingApp: PBBAMethod {
    public static let name = "pbba.openBankingApp"
    public static let mutates = true

    /// Table 6 of the document.
    public struct Params: JSONModel, Equatable {
        /// The unique token that identifies the payment request (Table 6 `secureToken`).
        /// - Pattern: ^[A-Za-z0-9._~-]+$
        /// - MaxLength: 256
        public var secureToken: String

        /// Creates the value from its members, one parameter per property.
        public init(secureToken: String) {
            self.secureToken = secureToken
        }
    }

    public typealias Result = BankAppLaunch

    public static let errors = [
        PBBAError.Descriptors.noBankAppInstalled, PBBAError.Descriptors.paymentRequestNotFound,
        PBBAError.Descriptors.requestExpired, PBBAError.Descriptors.paymentAlreadyFinished,
    ]

    public static var notifications: [any RPCNotification.Type] { [PaymentStatusChanged.self] }
}
