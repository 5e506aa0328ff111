import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// The built-in sandbox Web API's state for a profile (namespace `journal`, key `sandboxWebAPI`):
/// the answers a tester set for the next POSTs, taken in order. Absent: it accepts every POST.
struct SandboxWebAPIState: JSONModel, ProfileDocument, Equatable {
    static let namespace = "journal"
    static let key = "sandboxWebAPI"

    /// The answers still to give, first first.
    var nextAnswers: [SandboxAnswer]
}
