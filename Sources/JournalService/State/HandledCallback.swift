import PayRPCJSON
import PayRPCSchema

/// A callback already handled (namespace `journal.callbacks`, key its `Payment_Number`): the entry
/// it made, so that the same callback handled again answers that entry instead of making another.
struct HandledCallback: JSONModel, Equatable {
    /// The entry the callback made.
    var entryId: String
}
