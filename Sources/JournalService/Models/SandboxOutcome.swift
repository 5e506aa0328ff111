import PayRPCJSON
import PayRPCSchema

/// What the built-in sandbox Web API does with one POST.
public enum SandboxOutcome: String, JSONModel, CaseIterable {
    /// Accepts it: a 2xx answer, with a payment id (or the `body` given).
    case accept
    /// Answers an HTTP error with a message: the document's pop-up (`journal.syncFailed`).
    case serverError
    /// Drops the connection before answering: a network failure, retried three times.
    case networkFailure
    /// Answers nothing until the request's timeout has passed (10 s unless the server was built
    /// with another): a network failure too, while the entry shows `waiting`.
    case hang
}
