import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Sandbox only: turns PayKey on or off for this profile, as the bank would for a user whose
/// service is suspended or newly activated.
///
/// `tatra.fetchSetupData` then answers `isActivated` with the value set. Kept in the store per
/// profile; a new profile starts with `setup.isActivated` of `tatra-sandbox.json` (true as
/// shipped), and `sandbox.tatra.resetProfile` returns to it.
public enum SandboxSetActivated: TatraMethod {
    public static let name = "sandbox.tatra.setActivated"
    public static let traits: MethodTraits = [.mutates, .sandboxOnly, .ordered]

    /// The activation to set.
    public struct Params: JSONModel, Equatable {
        /// Whether PayKey is activated for this user.
        public var activated: Bool
    }

    public typealias Result = NoResult
}
