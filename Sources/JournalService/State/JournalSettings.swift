import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// A profile's journal settings (namespace `journal`, key `config`), as `journal.configure` set them.
struct JournalSettings: JSONModel, ProfileDocument, Equatable {
    static let namespace = "journal"
    static let key = "config"

    /// The Web API's base URL; nil uses the server's (`serve --journal-backend`), else the built-in
    /// sandbox Web API.
    var backendURL: String?
    /// Where the `/payments/` answer carries the payment id (a JSON Pointer); nil: the first of
    /// ``PaymentIDLookup/defaultPointers``.
    var paymentIdPointer: String?
}
