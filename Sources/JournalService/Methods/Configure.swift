import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Sets the profile's Web API base URL (the document's backend), overriding the server's
/// `serve --journal-backend`; `null` goes back to the server's. Without either, entries wait
/// locally with status `noBackend`.
public enum Configure: JournalMethod {
    public static let name = "journal.configure"

    /// The backend.
    public struct Params: JSONModel, Equatable {
        /// The base URL (`http://127.0.0.1:8080`), or null.
        /// - Format: uri
        public var backendURL: String?
    }

    public typealias Result = NoResult
    public static let mutates = true
}
