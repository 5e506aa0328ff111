import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Returns the account's IBAN.
///
/// iOS `getIban:`, Android `getIban(CompletionCallback<String>)`. Fails with `authRequiredError`
/// until `tatra.authorize` succeeds with the right PIN, and again once that authorization has
/// expired. In the sandbox: `iban` of `tatra-sandbox.json` (`SK9711000000002926123456`).
public enum GetIban: TatraMethod {
    public static let name = "tatra.getIban"
    public static let traits: MethodTraits = [.ordered]
    public typealias Params = NoParams

    /// The IBAN, electronic format (no spaces).
    public typealias Result = String
    public static let errors = [TatraErrorType.authRequired.descriptor] + TatraErrorType.bankCall
}
