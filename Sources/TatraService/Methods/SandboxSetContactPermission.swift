import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Sandbox only: grants or withdraws the contacts permission of this profile, as the user would in
/// the phone's settings.
///
/// While withdrawn, `tatra.fetchTopContacts` and `tatra.fetchContacts` fail with
/// `missingContactPermissionError`. Kept in the store per profile; a new profile starts with
/// `contactPermissionGranted` of `tatra-sandbox.json` (true as shipped).
public enum SandboxSetContactPermission: TatraMethod {
    public static let name = "sandbox.tatra.setContactPermission"
    public static let traits: MethodTraits = [.mutates, .sandboxOnly, .ordered]

    /// The permission to set.
    public struct Params: JSONModel, Equatable {
        /// Whether the app may read the contacts.
        public var granted: Bool
    }

    public typealias Result = NoResult
}
