import PayRPCJSON
import PayRPCSchema

/// An amount that makes the sandbox answer a payment in a documented way.
public struct MagicAmount: JSONModel, Equatable {
    /// The amount (compared numerically: `13.13` and `13.130` are the same).
    public var amount: Amount
    /// What happens.
    public var outcome: PaymentOutcome
}

/// What a payment of a magic amount does.
public enum PaymentOutcome: String, JSONModel, CaseIterable {
    /// The payment ends `rejected`.
    case rejected
    /// It stays `processing`.
    case staysProcessing
    /// `processing`, then `completed` `completionDelaySeconds` later on the profile's sandbox clock
    /// (`dotpay.updatePaymentSummary` finds it).
    case completesLater
    /// The flow fails: `paymentFailed` (`didFailToFinishPaymentWithError`).
    case flowFails
    /// The payment completes, but re-reading its status fails (`didFailedToUpdatePaymentSummary`).
    case updateFails
    /// The payment is accepted and waits to be carried out: `processing_realization_waiting`.
    case awaitsRealization
    /// The payment is being carried out: `processing_realization`.
    case inRealization
}
