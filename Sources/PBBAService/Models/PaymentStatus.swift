import PayRPCJSON
import PayRPCSchema

/// The state of a payment request as the merchant backend reports it (the `PaymentStatus` enum
/// of the document's sample code, section 5: `PaymentStatusInProgress`, then a final status).
///
/// `expired` is never written to the store: it is computed against the clock from the stored
/// absolute expiry whenever a request is read, so a request that expires while the server is
/// down reads as expired after a restart.
public enum PaymentStatus: String, JSONModel, Equatable {
    /// The request waits for the Consumer to approve or decline it in a bank app.
    case inProgress
    /// The Consumer approved the payment in the bank app.
    case completed
    /// The Consumer declined (cancelled) the payment in the bank app.
    case declined
    /// The retrieval period (or the pop-up's expiry interval) passed before a decision.
    case expired
}
