import PayRPCJSON
import PayRPCSchema

/// The `data` of `bankTempOOSError(String paymentId)`: the bank is temporarily out of service; the
/// app shows a confirmation screen and, if the user retries, calls `tatra.resubmitPayment` with
/// the payment id.
public struct BankTempOOSErrorData: JSONModel, Equatable {
    /// Always `bankTempOOS`.
    public var type: TatraErrorType
    /// `UNAVAILABLE`.
    public var status: TatraErrorStatus
    /// Always false: the payment can be resubmitted.
    public var fatal: Bool
    /// The payment to pass to `tatra.resubmitPayment` (the factory's `paymentId`).
    /// - Example: "TB-000001"
    public var paymentId: String
}
