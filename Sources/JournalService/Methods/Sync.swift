import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Sends every entry the backend has not accepted yet, now, and answers when each has been tried
/// (what the app does at its next start, on demand). A POST that was accepted is never sent again:
/// an entry `paymentIdMissing` only has its kept `/payments/` answer read again with the profile's
/// `paymentIdPointer`.
public enum Sync: JournalMethod {
    public static let name = "journal.sync"
    public static let traits: MethodTraits = [.mutates]
    public typealias Params = NoParams

    /// What happened.
    public struct Result: JSONModel, Equatable {
        /// How many entries were tried.
        public var attempted: Int
        /// How many of them are delivered now.
        public var delivered: Int
        /// How many still wait.
        public var waiting: Int
    }

    public static var notifications: [any RPCNotification.Type] { [SyncFailed.self] }
}
