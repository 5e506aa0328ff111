import PayRPCJSON
import PayRPCSchema

/// The gRPC canonical status name a tatra error carries in `data.status`.
public enum TatraErrorStatus: String, JSONModel {
    /// The request itself is wrong (a reference or phone that breaks the setup's rules).
    case invalidArgument = "INVALID_ARGUMENT"
    /// The amount is outside the setup's limits.
    case outOfRange = "OUT_OF_RANGE"
    /// The state does not allow the call (no payment awaiting authorization, application blocked).
    case failedPrecondition = "FAILED_PRECONDITION"
    /// The user must authenticate first (authorization required, wrong PIN).
    case unauthenticated = "UNAUTHENTICATED"
    /// The user has not granted a permission the call needs.
    case permissionDenied = "PERMISSION_DENIED"
    /// The thing named does not exist (an unknown payment id).
    case notFound = "NOT_FOUND"
    /// The bank or the network is unavailable for now; retrying later may work.
    case unavailable = "UNAVAILABLE"
    /// Something else went wrong.
    case unknown = "UNKNOWN"
}
