import Foundation
import PayRPCJSON
import PayRPCSchema

/// A payment request as the merchant backend stores it (namespace `pbba.requests`, keyed by a
/// hash of its secureToken; the token itself is never stored).
struct PaymentRequestRecord: JSONModel, Equatable {
    /// The non-secret id.
    var requestId: String
    /// The six-character code.
    var brn: String
    /// The amount.
    var amount: Amount
    /// ISO 4217 code.
    var currency: String
    /// The merchant's reference.
    var reference: String
    /// When the request was created.
    var createdAt: Date
    /// The absolute expiry: the end of the retrieval period, on the clock of ``clockProfile``.
    /// Status is computed against it on every read.
    var expiresAt: Date
    /// inProgress, completed or declined (expired is computed, never stored).
    var status: PaymentStatus
    /// When the Consumer approved or declined.
    var decidedAt: Date?
    /// The profile whose sandbox clock the request's times are on: the one whose call made it.
    /// Absent in records written before clocks were per profile: the caller's clock then.
    var clockProfile: String?

    /// The status at `now`: `expired` once the expiry has passed without a decision.
    func status(at now: Date) -> PaymentStatus {
        if status == .inProgress && now >= expiresAt { return .expired }
        return status
    }

    /// The public view at `now`.
    func info(at now: Date) -> PaymentStatusInfo {
        PaymentStatusInfo(
            status: status(at: now), requestId: requestId, brn: brn, amount: amount,
            currency: currency, reference: reference, expiresAt: expiresAt, decidedAt: decidedAt)
    }
}
