import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// The status of a payment request at the merchant backend: inProgress, completed, declined or
/// expired.
///
/// Document sections 4.2.4 and 5 (`getPaymentStatus:`). Expiry is computed against the clock on
/// every read, so a request that expired while the server was down reads as expired. Prefer the
/// pushed `pbba.paymentStatusChanged` to polling this.
public enum GetPaymentStatus: PBBAMethod {
    public static let name = "pbba.getPaymentStatus"

    /// The request.
    public struct Params: JSONModel, Equatable {
        /// The request's secureToken.
        public var secureToken: SecureToken
    }

    public typealias Result = PaymentStatusInfo
    public static let errors = [PBBAErrorKind.paymentRequestNotFound.descriptor]
}
