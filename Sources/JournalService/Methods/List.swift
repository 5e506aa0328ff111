import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// The journal, newest first, a page at a time, filtered by type and delivery status.
public enum List: JournalMethod {
    public static let name = "journal.list"

    /// The filter and the page.
    public struct Params: JSONModel, Equatable {
        /// Only this payment type.
        public var type: PaymentType?
        /// Only entries in this delivery status.
        public var status: DeliveryStatus?
        /// The most entries to answer.
        /// - Minimum: 1
        /// - Maximum: 500
        public var limit: Int = 50
        /// The `nextCursor` of the previous page; one that is not an entry of this profile's
        /// journal fails with `entryNotFound`.
        public var cursor: String?
    }

    /// A page.
    public struct Result: JSONModel, Equatable {
        /// The entries.
        public var entries: [JournalEntry]
        /// Where the next page starts; absent on the last.
        public var nextCursor: String?
    }

    public static let errors = [JournalErrorKind.entryNotFound.descriptor]
}
