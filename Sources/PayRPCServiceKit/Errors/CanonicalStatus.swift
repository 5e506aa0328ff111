/// A gRPC canonical status name, as a domain error's `data.status` carries it (docs/architecture.md,
/// "Errors"): what kind of failure it is, whatever the service.
///
/// An open set of constants, so a service can name a status not listed here.
public struct CanonicalStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The name (`NOT_FOUND`).
    public var rawValue: String
    /// The status named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The name.
    public var description: String { rawValue }

    /// The request itself is wrong.
    public static let invalidArgument = CanonicalStatus(rawValue: "INVALID_ARGUMENT")
    /// A value is outside its range (an amount beyond a limit).
    public static let outOfRange = CanonicalStatus(rawValue: "OUT_OF_RANGE")
    /// The state does not allow the call.
    public static let failedPrecondition = CanonicalStatus(rawValue: "FAILED_PRECONDITION")
    /// The caller must authenticate first.
    public static let unauthenticated = CanonicalStatus(rawValue: "UNAUTHENTICATED")
    /// The caller may not do this.
    public static let permissionDenied = CanonicalStatus(rawValue: "PERMISSION_DENIED")
    /// The thing named does not exist.
    public static let notFound = CanonicalStatus(rawValue: "NOT_FOUND")
    /// The thing to create exists already.
    public static let alreadyExists = CanonicalStatus(rawValue: "ALREADY_EXISTS")
    /// A limit or quota was reached.
    public static let resourceExhausted = CanonicalStatus(rawValue: "RESOURCE_EXHAUSTED")
    /// A backend is unavailable for now; retrying later may work.
    public static let unavailable = CanonicalStatus(rawValue: "UNAVAILABLE")
    /// The backend failed.
    public static let internalError = CanonicalStatus(rawValue: "INTERNAL")
    /// Something else went wrong.
    public static let unknown = CanonicalStatus(rawValue: "UNKNOWN")
}
