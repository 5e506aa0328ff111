import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Removes one payment from the history (`DPPaymentHistory removePaymentSummary:`).
public enum RemovePaymentSummary: DotpayMethod {
    public static let name = "dotpay.removePaymentSummary"

    /// The params.
    public struct Params: JSONModel, Equatable {
        /// The payment's operation number.
        public var paymentId: OperationNumber
    }

    public typealias Result = NoResult
    public static let mutates = true
    public static let destructive = true
    public static let errors = [DotpayErrorKind.paymentNotFound.descriptor]
}
