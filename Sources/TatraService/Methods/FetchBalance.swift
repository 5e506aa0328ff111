import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Returns the account's current balance and due date.
///
/// iOS `fetchBalance:`, Android `getBalance(CompletionCallback<BalanceData>)`. Fails with
/// `authRequiredError` until `tatra.authorize` succeeds with the right PIN, and again once that
/// authorization has expired (`authorizationLifetimeSeconds`, 300 as shipped). `showConditions` is
/// true until the profile has authorized once. In the sandbox the balance is `balance` of
/// `tatra-sandbox.json` (1523.47) minus the payments completed on the profile.
public enum FetchBalance: TatraMethod {
    public static let name = "tatra.fetchBalance"
    public static let traits: MethodTraits = [.ordered]
    public static let aliases = ["tatra.getBalance"]
    public typealias Params = NoParams
    public typealias Result = BalanceData
    public static let errors = [TatraErrorType.authRequired.descriptor] + TatraErrorType.bankCall
}
