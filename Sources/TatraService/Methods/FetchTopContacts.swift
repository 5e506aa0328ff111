import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Returns the top contacts to present first.
///
/// iOS `fetchTopContacts:`, Android `getTopContacts(CompletionCallback<List<TTContact>>)`. In the
/// sandbox: `topContacts` of `tatra-sandbox.json`. Fails with `missingContactPermissionError` while
/// the profile has not granted the contacts permission (`sandbox.tatra.setContactPermission` with
/// `granted: false`); `sandbox.failNext` makes the next call fail with `generalError`,
/// `serviceUnavaiableError` or `networkError` (named `general`, `serviceUnavailable`, `network`:
/// their `data.type`).
public enum FetchTopContacts: TatraMethod {
    public static let name = "tatra.fetchTopContacts"
    public static let traits: MethodTraits = [.ordered]
    public static let aliases = ["tatra.getTopContacts"]
    public typealias Params = NoParams
    public typealias Result = [Contact]
    public static let errors = [TatraErrorType.missingContactPermission.descriptor] + TatraErrorType.bankCall
}
