import PayRPCJSON
import PayRPCSchema

/// Where an entry is on its way to the backend.
public enum DeliveryStatus: String, JSONModel, CaseIterable {
    /// Waiting to be sent (or re-sent after network failures: at the next start or `journal.sync`).
    case waiting
    /// No backend is configured (`serve --journal-backend URL` or `journal.configure`): it waits.
    case noBackend
    /// The server answered an error; sent again at the next start or `journal.sync`.
    case serverError
    /// Every POST it needs was accepted.
    case delivered
}
