import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Sandbox only: forgets everything the tatra sandbox keeps for this profile — the wrong-PIN
/// counter and blocked flag, the authorization, the contacts permission, held payments and the
/// payments made.
///
/// The only way to unblock an application blocked by wrong PINs.
public enum SandboxResetProfile: TatraMethod {
    public static let name = "sandbox.tatra.resetProfile"
    public static let traits: MethodTraits = [.mutates, .destructive, .sandboxOnly, .ordered]
    public typealias Params = NoParams
    public typealias Result = NoResult
}
