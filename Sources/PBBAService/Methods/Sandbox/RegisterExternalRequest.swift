import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Sandbox: registers a payment request made by another backend (a real Distributor), so that the
/// bank-app side (`sandbox.pbba.approvePayment`, `declinePayment`, by token or code) and
/// `pbba.getPaymentStatus` work for it as for payrpc's own.
///
/// The library half needs no registration: `pbba.showPBBAPopup` and `pbba.openBankingApp` accept
/// any well-formed secureToken and code (in the document the tokens come from the Distributor).
/// Pop-ups already showing the token are linked to the request, and their app follows it.
public enum RegisterExternalRequest: PBBAMethod {
    public static let name = "sandbox.pbba.registerExternalRequest"
    public static let traits: MethodTraits = [.mutates, .sandboxOnly]

    /// The outside request as its backend made it.
    public struct Params: JSONModel, Equatable {
        /// Its secureToken, as the other backend issued it.
        public var secureToken: SecureToken
        /// Its six-character code.
        /// - Example: "K7MXQ2"
        public var brn: BRN
        /// The amount, a decimal string greater than zero.
        /// - Example: "10.00"
        public var amount: Amount
        /// ISO 4217 currency code.
        /// - Example: "GBP"
        public var currency: CurrencyCode
        /// The merchant's reference for the payment.
        /// - MinLength: 1
        /// - MaxLength: 35
        public var reference: String
        /// What is left of its retrieval period, in whole seconds; the sandbox's default (300)
        /// when absent.
        /// - Minimum: 1
        /// - Maximum: 86400
        public var retrievalExpiryInterval: Int?
    }

    public typealias Result = PaymentStatusInfo
    public static let errors = [PBBAErrorKind.secureTokenInUse.descriptor, PBBAErrorKind.brnInUse.descriptor]
    public static var notifications: [any RPCNotification.Type] { [PaymentStatusChanged.self] }
}
