import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// A profile's journal settings (namespace `journal`, key `config`), as `journal.configure` set them.
///
/// The backend's URL may carry credentials (`https://user:secret@host`), so the store keeps it only
/// sealed under the store key (``sealedBackendURL``; every gateway on a shared store is given that
/// key and opens it); ``JournalBook`` seals it on the way in and opens it on the way out, so the
/// rest of the service sees ``backendURL``.
struct JournalSettings: JSONModel, ProfileDocument, Equatable {
    static let namespace = "journal"
    static let key = "config"
    /// The sealing context of the backend's URL.
    static let backendURLContext = "journal.backendURL"

    /// The Web API's base URL; nil uses the server's (`serve --journal-backend`), else the built-in
    /// sandbox Web API. Never written to the store (a document written before the URL was
    /// sealed may still hold it, and is read as it is).
    var backendURL: String?
    /// ``backendURL`` sealed, as the store keeps it.
    var sealedBackendURL: String?
    /// Where the `/payments/` answer carries the payment id (a JSON Pointer); nil: the first of
    /// ``PaymentIDLookup/defaultPointers``.
    var paymentIdPointer: String?
}
