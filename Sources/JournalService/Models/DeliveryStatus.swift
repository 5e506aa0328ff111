import PayRPCJSON
import PayRPCSchema

/// Where an entry is on its way to the backend.
public enum DeliveryStatus: String, JSONModel, CaseIterable {
    /// Waiting to be sent, or being sent (re-sent after network failures at the next start or
    /// `journal.sync`).
    case waiting
    /// No Web API to send to: no backend URL is configured (`serve --journal-backend URL`,
    /// `journal.configure`) and the server runs without its sandboxes (`--no-sandbox`), so there is
    /// no built-in sandbox Web API either. It waits.
    case noBackend
    /// The server answered an error; sent again at the next start or `journal.sync`.
    case serverError
    /// `/payments/` accepted a card or account payment but its answer carried no payment id where
    /// the profile looks (`journal.configure {paymentIdPointer}`), so `/journals/` cannot be sent.
    /// The payment is never posted again; the answer is kept in `paymentAnswer`, and the next start
    /// or `journal.sync` looks again with the pointer configured then.
    case paymentIdMissing
    /// Every POST it needs was accepted.
    case delivered
}
