#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCJSON
import PayRPCSchema

/// An entry's outbox: what was sent, what the backend answered, and the idempotency keys that
/// make every retry of a POST the same POST. Stored in the entry's own document, so that entry
/// and outbox are written in one transaction.
public struct Delivery: JSONModel, Equatable {
    /// Where it is.
    public var status: DeliveryStatus
    /// Whether `POST /payments/` was accepted.
    public var paymentPosted: Bool
    /// The payment id the backend answered `/payments/` with (where `journal.configure
    /// {paymentIdPointer}` says; cash may have none).
    public var paymentId: String?
    /// The `/payments/` answer's body (its text as a string when it is not JSON), kept only while
    /// a card or account payment lacks its payment id (status `paymentIdMissing`).
    public var paymentAnswer: JSONValue?
    /// Whether `POST /journals/` was accepted (never needed for cash).
    public var journalPosted: Bool
    /// The `Idempotency-Key` of the `/payments/` POST, the same on every retry and restart.
    public var paymentKey: String
    /// The `Idempotency-Key` of the `/journals/` POST.
    public var journalKey: String
    /// How many POSTs were tried.
    public var attempts: Int
    /// What went wrong last.
    public var lastError: String?
    /// When it was delivered.
    public var deliveredAt: Date?
}
