import PayRPCJSON
import PayRPCSchema

/// A payment's status (`kDPPaymentSummaryStatus…`). A finished flow is not a completed payment:
/// only `completed` is.
public enum PaymentStatus: String, JSONModel, CaseIterable {
    /// Registered, not yet paid.
    case new
    /// Being paid.
    case processing
    /// Paid.
    case completed
    /// Refused (*odmowa*).
    case rejected
    /// Waiting to be carried out (*oczekuje na realizację*).
    case processingRealizationWaiting = "processing_realization_waiting"
    /// Being carried out (*w realizacji*).
    case processingRealization = "processing_realization"

    /// Whether the status is final (`completed` or `rejected`): what the shop's `urlc` is told of.
    public var isFinal: Bool { self == .completed || self == .rejected }
}
