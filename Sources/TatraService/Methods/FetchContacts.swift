import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Returns all contacts, for the contact list.
///
/// iOS `fetchContacts:`, Android `getContacts(CompletionCallback<List<TTContact>>)`. In the
/// sandbox: `contacts` of `tatra-sandbox.json`. Fails with `missingContactPermissionError` while
/// the profile has not granted the contacts permission (`sandbox.tatra.setContactPermission` with
/// `granted: false`); `sandbox.failNext` makes the next call fail with `generalError`,
/// `serviceUnavaiableError` or `networkError` (named `general`, `serviceUnavailable`, `network`:
/// their `data.type`).
public enum FetchContacts: TatraMethod {
    public static let name = "tatra.fetchContacts"
    public static let traits: MethodTraits = [.ordered]
    public static let aliases = ["tatra.getContacts"]
    public typealias Params = NoParams
    public typealias Result = [Contact]
    public static let errors = [TatraErrorType.missingContactPermission.descriptor] + TatraErrorType.bankCall
}
