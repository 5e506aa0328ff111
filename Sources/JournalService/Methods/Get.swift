import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// One entry of the journal, with its delivery status and attempts.
public enum Get: JournalMethod {
    public static let name = "journal.get"

    /// The entry.
    public struct Params: JSONModel, Equatable {
        /// Its id.
        public var entryId: EntryID
    }

    public typealias Result = JournalEntry
    public static let errors = [JournalErrorKind.entryNotFound.descriptor]
}
