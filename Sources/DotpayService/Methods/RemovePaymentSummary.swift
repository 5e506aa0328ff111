import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Removes one payment from the history (`DPPaymentHistory removePaymentSummary:`).
public enum RemovePaymentSummary: DotpayMethod {
    public static let name = "dotpay.removePaymentSummary"
    public static let traits: MethodTraits = [.mutates, .destructive]

    /// The params.
    public struct Params: JSONModel, Equatable {
        /// The payment's operation number.
        public var paymentId: OperationNumber
    }

    public typealias Result = NoResult
    public static let errors = [DotpayErrorKind.paymentNotFound.descriptor]
}
