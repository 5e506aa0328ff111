import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Authorizes the user with the PIN, so that `tatra.fetchBalance` and `tatra.getIban` answer.
///
/// iOS `authorize:completion:`, Android `authorize(AuthData, CompletionCallback<Void>)`. The
/// authorization lasts `authorizationLifetimeSeconds` (300 as shipped) and belongs to the profile.
/// The sandbox PIN is `1234`. Wrong PINs count together with `tatra.authorizePayment`'s: a wrong PIN
/// → `wrongPinError`; the third in a row → `wrongPinError` with `applicationBlocked: true`, after
/// which every PIN is refused, across restarts, until `sandbox.tatra.resetProfile`.
public enum Authorize: TatraMethod {
    public static let name = "tatra.authorize"
    public static let traits: MethodTraits = [.mutates, .ordered]

    /// The PIN the user entered. Android `AuthData`, iOS the `pincode` argument.
    public struct Params: JSONModel, Equatable {
        /// The PIN. Android `AuthData.pincode`, iOS `pincode`.
        /// - Example: "1234"
        public var pincode: PIN
    }

    public typealias Result = NoResult
    public static let errors = [TatraErrorType.wrongPin.descriptor] + TatraErrorType.bankCall
}
