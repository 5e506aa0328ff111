import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// A saved payment of the journal: the app's Core DB record, with its delivery to the backend.
public struct JournalEntry: JSONModel, Equatable {
    /// The entry's id (from the profile's seeded stream).
    public var entryId: EntryID
    /// The payment type.
    public var type: PaymentType
    /// The amount in yen (the journal's currency has no minor unit): a decimal string of whole
    /// yen (`"10000"`), which the hand-off URL carries as `Amount=10000`. Absent for an account
    /// payment whose callback carries no amount.
    public var amount: Amount?
    /// Every parameter the Payment Application's callback carried, decoded (cash: none).
    public var parameters: [String: String]
    /// The callback's result: `approved`, `declined` or `cancelled` (cash: `approved`).
    public var result: String
    /// When the entry was saved, on the profile's sandbox clock.
    public var createdAt: Date
    /// Its delivery to the backend.
    public var delivery: Delivery
}
